import { describe, expect, it } from 'bun:test'
import { compileCatalog, type Logger } from '@mycelo/septum'
import { Translator } from '../../i18n/translator.ts'

const logged: { level: string; message: string; meta?: Record<string, unknown> }[] = []
const logger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: (message, meta) => logged.push({ level: 'warn', message, meta }),
  error: (message, meta) => logged.push({ level: 'error', message, meta }),
  child: () => logger,
}

function translator() {
  const t = new Translator({ defaultLocale: 'en', logger })
  t.addDomain(
    'films',
    new Map([
      [
        'en',
        compileCatalog('en', {
          plain: 'pong',
          quoted: "'{name}' stays literal",
          doubled: "''{name}''",
          tag: "Try '<title>' now",
          hello: 'Hello {name}',
          only: 'only in English',
        }),
      ],
      ['fr', compileCatalog('fr', { plain: 'pong en français', hello: 'Bonjour {name}' })],
    ]),
  )
  return t
}

describe('Translator', () => {
  it('renders plain text, quoted placeholders and quoted tags exactly as ICU does', () => {
    const t = translator()
    expect(t.render({ domain: 'films', key: 'plain' })).toBe('pong')
    expect(t.render({ domain: 'films', key: 'quoted' })).toBe('{name} stays literal')
    expect(t.render({ domain: 'films', key: 'doubled', params: { name: 'Bob' } })).toBe("'Bob'")
    expect(t.render({ domain: 'films', key: 'tag' })).toBe('Try <title> now')
  })

  it('tries the exact locale, then its language, then the default with one warning per key', () => {
    const t = translator()
    logged.length = 0
    expect(t.render({ domain: 'films', key: 'hello', params: { name: 'Ada' } }, 'fr-CA')).toBe('Bonjour Ada')
    expect(t.render({ domain: 'films', key: 'only' }, 'fr')).toBe('only in English')
    expect(t.render({ domain: 'films', key: 'only' }, 'fr')).toBe('only in English')
    expect(logged.filter((l) => l.level === 'warn')).toHaveLength(1)
    // A locale the domain ships nothing for is untranslated, not missing a key.
    expect(t.render({ domain: 'films', key: 'only' }, 'de')).toBe('only in English')
    expect(logged.filter((l) => l.level === 'warn')).toHaveLength(1)
  })

  it('renders an unknown key, or one whose placeholder nobody supplied, as the key itself', () => {
    const t = translator()
    logged.length = 0
    expect(t.render({ domain: 'films', key: 'no.such.key' })).toBe('no.such.key')
    expect(t.render({ domain: 'nowhere', key: 'x' })).toBe('x')
    expect(t.render({ domain: 'films', key: 'hello' })).toBe('hello')
    expect(logged.at(-1)).toMatchObject({ level: 'error', meta: { domain: 'films', key: 'hello' } })
  })

  it('lists every locale some domain ships, the default first', () => {
    expect(translator().locales()).toEqual(['en', 'fr'])
  })

  it("renders from a domain's new catalogues once they replace the old, found or missing, in every locale asked", () => {
    const t = translator()
    // Each answer is remembered per domain, locale and key: the first reads fill that memory.
    expect(t.render({ domain: 'films', key: 'plain' }, 'fr-CA')).toBe('pong en français')
    expect(t.render({ domain: 'films', key: 'hello', params: { name: 'Ann' } }, 'en')).toBe('Hello Ann')
    expect(t.render({ domain: 'films', key: 'later' }, 'en')).toBe('later')
    expect(t.render({ domain: 'shows', key: 'plain' }, 'en')).toBe('plain')
    t.addDomain(
      'films',
      new Map([
        ['en', compileCatalog('en', { plain: 'pong again', hello: 'Hi {name}', later: 'added later' })],
        ['fr', compileCatalog('fr', { plain: 'pong encore' })],
      ]),
    )
    t.addDomain('shows', new Map([['en', compileCatalog('en', { plain: 'a show' })]]))
    expect(t.render({ domain: 'films', key: 'plain' }, 'fr-CA')).toBe('pong encore')
    expect(t.render({ domain: 'films', key: 'hello', params: { name: 'Ann' } }, 'en')).toBe('Hi Ann')
    expect(t.render({ domain: 'films', key: 'hello', params: { name: 'Bo' } }, 'en')).toBe('Hi Bo')
    expect(t.render({ domain: 'films', key: 'later' }, 'en')).toBe('added later')
    expect(t.render({ domain: 'shows', key: 'plain' }, 'en')).toBe('a show')
  })
})
