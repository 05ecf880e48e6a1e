import { describe, expect, it } from 'bun:test'
import { readFileSync } from 'node:fs'
import { compileCatalog, flattenCatalog } from '@mycelo/septum'
import { parse } from 'yaml'
import { CONNECT_WORDING, renderWording } from '../src/connect-refusal.ts'
import { TROUBLE_WORDING, type TroubleSentence, troubleWords } from '../src/troubles.ts'

const catalog = (locale: string): unknown =>
  parse(readFileSync(new URL(`../translations/${locale}.yaml`, import.meta.url), 'utf8'))

const params = {
  intents: 'Message Content Intent',
  reason: 'Invalid shard',
  gateway: 'wss://gateway.discord.gg',
  where: '#general (123)',
  code: '50013',
  guild: '456',
  count: '2',
  seconds: '30',
  limit: '100',
}

describe('the discord catalogues', () => {
  it('hold in English exactly the sentences connect() rejects with', () => {
    const english = compileCatalog('en', catalog('en')).messages
    for (const [key, template] of Object.entries(CONNECT_WORDING)) {
      expect(english.get(`connect.${key}`)?.format(params)).toBe(renderWording(template, params))
    }
  })

  it('hold in English exactly the sentences the log and health() give about a live channel', () => {
    const english = compileCatalog('en', catalog('en')).messages
    for (const key of Object.keys(TROUBLE_WORDING) as TroubleSentence[]) {
      expect(english.get(`trouble.${key}`)?.format(params)).toBe(troubleWords(key, params))
    }
  })

  it('give French every English key, and every key compiles and renders', () => {
    const englishKeys = [...flattenCatalog('en', catalog('en')).keys()].sort()
    expect([...flattenCatalog('fr', catalog('fr')).keys()].sort()).toEqual(englishKeys)
    const french = compileCatalog('fr', catalog('fr')).messages
    for (const key of englishKeys) expect(String(french.get(key)?.format(params))).not.toContain('{')
    expect(String(french.get('connect.intents_disallowed')?.format(params))).toContain(
      'Message Content Intent',
    )
  })
})
