import { describe, expect, it } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { flattenCatalog } from '@mycelo/septum'
import { parse } from 'yaml'
import { parseArguments } from '../../boot/arguments.ts'
import { CORE_TRANSLATIONS, coreText, loadDomain } from '../../boot/catalogues.ts'
import { refusalJson, reportJson, reportText } from '../../boot/report-text.ts'

const catalogs = loadDomain(join(CORE_TRANSLATIONS, 'core'))

describe('the core catalogue', () => {
  it('has the same keys in English and French', () => {
    const keys = (locale: string) =>
      [
        ...flattenCatalog(
          locale,
          parse(readFileSync(join(CORE_TRANSLATIONS, 'core', `${locale}.yaml`), 'utf8')),
        ).keys(),
      ].sort()
    expect(keys('fr')).toEqual(keys('en'))
    expect(keys('en').length).toBeGreaterThan(10)
  })

  it('speaks the configured language, agreeing with the count', () => {
    const fr = coreText(catalogs, 'fr')
    expect(fr('boot.running', { live: 1, total: 3 })).toBe(
      'Mycelo tourne : 1 spore active sur 3. Arrêtez-le avec Ctrl+C.',
    )
    expect(coreText(catalogs, 'en')('boot.running', { live: 2, total: 3 })).toBe(
      'Mycelo is running: 2 of 3 spores live. Stop it with Ctrl+C.',
    )
    // A language the core does not ship falls back to English.
    expect(coreText(catalogs, 'de')('boot.stopped')).toBe('Stopped.')
  })
})

describe('the report', () => {
  const lines = [
    { name: 'console', kind: 'hypha', state: 'live', dir: '/s/console' },
    { name: 'x', kind: undefined, state: 'dormant', reason: 'spore.yaml: kind: required', dir: '/s/x' },
  ] as const

  it('aligns one line per spore, its kind as a person says it, the reason last', () => {
    expect(reportText(lines, { t: coreText(catalogs, 'en'), folders: ['/s'] })).toBe(
      'Germination report: 2 spores\n  console  channel  live\n  x        unknown  dormant  spore.yaml: kind: required\n',
    )
    const french = reportText(lines, { t: coreText(catalogs, 'fr'), folders: ['/s'] })
    expect(french).toContain('  console  canal    active')
    expect(french).toContain('  x        inconnu  dormante')
  })

  it('words a setting problem in the report’s language, never in the validator’s', () => {
    const needy = [
      {
        name: 'discord',
        kind: 'hypha',
        state: 'disabled',
        reason:
          'configuration is incomplete: token: Required (expected text). Fix it in its settings: Spores on the admin page, /set in chat, or bun run mycelo set.',
        dir: '/s/discord',
      },
    ] as const
    const french = reportText(needy, { t: coreText(catalogs, 'fr'), locale: 'fr', folders: ['/s'] })
    expect(french).toContain(
      '  discord  canal  désactivée  la configuration est incomplète\u00a0: token\u00a0: Obligatoire (attendu\u00a0: du texte). Corrigez-la',
    )
  })

  it('says where it looked when it found nothing', () => {
    expect(reportText([], { t: coreText(catalogs, 'en'), folders: ['/a', '/b'] })).toBe(
      'Germination report: no spores\n  No spore was found in /a, /b.\n',
    )
  })

  it('has a JSON form for scripts, and one for a refusal', () => {
    expect(JSON.parse(reportJson(lines))).toEqual({ ok: true, spores: lines })
    expect(JSON.parse(refusalJson('a cycle'))).toEqual({ ok: false, error: 'a cycle' })
  })
})

describe('the command line', () => {
  it('reads --check, --json and --help, ignoring a bare --', () => {
    expect(parseArguments([])).toEqual({ ok: true, value: { check: false, json: false, help: false } })
    expect(parseArguments(['--', '--check', '--json'])).toEqual({
      ok: true,
      value: { check: true, json: true, help: false },
    })
    expect(parseArguments(['-h'])).toEqual({ ok: true, value: { check: false, json: false, help: true } })
  })

  it('refuses an unknown option naming it, and --json alone', () => {
    expect(parseArguments(['--check', '--verbose'])).toEqual({
      ok: false,
      refusal: 'unknownOption',
      option: '--verbose',
    })
    expect(parseArguments(['--json'])).toEqual({ ok: false, refusal: 'jsonNeedsCheck' })
  })
})
