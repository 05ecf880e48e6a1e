import { describe, expect, it } from 'bun:test'
import { browserLocale } from '../../http/browser-locale.ts'

describe('the language a browser asks for, before sign-in', () => {
  it('takes the heaviest language the bot speaks, a regional one served by its language', () => {
    expect(browserLocale('fr-CA,fr;q=0.9,en;q=0.8', ['en', 'fr'], 'en')).toBe('fr')
    expect(browserLocale('de;q=0.9,en;q=0.5', ['en', 'fr'], 'fr')).toBe('en')
    expect(browserLocale('en;q=0.2, fr;q=0.7', ['en', 'fr'], 'en')).toBe('fr')
  })

  it('keeps the default when nothing asked for is spoken, or nothing is asked', () => {
    expect(browserLocale('de, *;q=0.1', ['en', 'fr'], 'fr')).toBe('fr')
    expect(browserLocale(undefined, ['en', 'fr'], 'en')).toBe('en')
    expect(browserLocale('fr;q=0', ['en', 'fr'], 'en')).toBe('en')
  })
})
