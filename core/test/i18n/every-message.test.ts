// Every catalogue message the repository ships, in every locale it ships, rendered the way replies
// are (plain messages joined without intl-messageformat, the rest through it) and straight through
// intl-messageformat: the same text, or the same failure, for values of every kind.
import { describe, expect, it } from 'bun:test'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { compileCatalog, formatMessage, type Logger } from '@mycelo/septum'
import type { IntlMessageFormat } from 'intl-messageformat'
import { Translator } from '../../i18n/translator.ts'

const ROOT = join(import.meta.dir, '../../..')
const files = Bun.spawnSync(['git', 'ls-files', '*translations/*.yaml'], { cwd: ROOT })
  .stdout.toString()
  .split('\n')
  .filter((path) => path.endsWith('.yaml'))

/** The ICU parser's element types (TYPE in @formatjs/icu-messageformat-parser). */
const TYPE = { argument: 1, number: 2, date: 3, time: 4, select: 5, plural: 6, tag: 8 }

interface Element {
  readonly type: number
  readonly value?: unknown
  readonly options?: Record<string, { readonly value: readonly Element[] }>
  readonly children?: readonly Element[]
}

/** Each argument a message names, with the values worth trying for it. */
function samplesOf(elements: readonly Element[], into = new Map<string, unknown[]>()) {
  for (const element of elements) {
    const name = String(element.value)
    if (element.type === TYPE.argument)
      into.set(name, ['Ada', 'Done.', 'Why?', '', "it's {x}", 'a\u2063.b\u2063', 0, 42, 1.5])
    if (element.type === TYPE.number || element.type === TYPE.plural) into.set(name, [0, 1, 2, 5, 1.5, 1000])
    if (element.type === TYPE.date || element.type === TYPE.time) into.set(name, [new Date(0)])
    if (element.type === TYPE.select)
      into.set(name, [...Object.keys(element.options ?? {}).filter((key) => key !== 'other'), 'elsewhere'])
    for (const option of Object.values(element.options ?? {})) samplesOf(option.value, into)
    if (element.children) samplesOf(element.children, into)
  }
  return into
}

/** A few value bags: each argument's samples in turn, the others at their first, and each one missing. */
function bagsOf(samples: Map<string, unknown[]>): Record<string, unknown>[] {
  const first = Object.fromEntries([...samples].map(([name, values]) => [name, values[0]]))
  const bags: Record<string, unknown>[] = [first]
  for (const [name, values] of samples) {
    for (const value of values.slice(1)) bags.push({ ...first, [name]: value })
    const { [name]: _missing, ...without } = first
    bags.push(without)
  }
  return bags
}

/** The text, or that it threw: a missing value throws on both ways. */
function outcome(format: () => string): string {
  try {
    return format()
  } catch {
    return '(threw)'
  }
}

/** A test fixture may be a broken catalogue on purpose; any other that does not compile fails here. */
function compiled(path: string, locale: string) {
  try {
    return compileCatalog(locale, Bun.YAML.parse(readFileSync(join(ROOT, path), 'utf8')))
  } catch (error) {
    if (path.includes('/test/fixtures/')) return undefined
    throw error
  }
}

const silent: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silent,
}

describe('every catalogue message in the repository', () => {
  it('formats as intl-messageformat formats it, in every shipped locale, through the translator too', () => {
    expect(files.length).toBeGreaterThanOrEqual(30)
    const locales = new Set<string>()
    let plain = 0
    let other = 0
    for (const path of files) {
      const locale = path.slice(path.lastIndexOf('/') + 1, -'.yaml'.length)
      locales.add(locale)
      const catalog = compiled(path, locale)
      if (catalog === undefined) continue
      const domain = dirname(path)
      const translator = new Translator({ defaultLocale: locale, logger: silent })
      translator.addDomain(domain, new Map([[locale, catalog]]))
      for (const [key, message] of catalog.messages) {
        const elements = message.getAst() as readonly Element[]
        if (elements.every((e) => e.type === 0 || e.type === TYPE.argument)) plain++
        else other++
        // The same message with its parsed form hidden: intl-messageformat formats every value.
        const icu = {
          format: (values?: Record<string, never>) => (message as IntlMessageFormat).format(values),
        }
        for (const params of bagsOf(samplesOf(elements))) {
          const expected = outcome(() => formatMessage(icu, params))
          const where = `${path} ${key} ${JSON.stringify(params)}`
          expect(`${where} ${outcome(() => formatMessage(message, params))}`).toBe(`${where} ${expected}`)
          // The translator renders a message it cannot format as its key.
          const rendered = translator.render({ domain, key, params }, locale)
          expect(`${where} ${rendered}`).toBe(`${where} ${expected === '(threw)' ? key : expected}`)
        }
      }
    }
    expect([...locales].sort()).toEqual(['de', 'en', 'fr'])
    // Both ways are exercised: most messages are plain, many are not.
    expect(plain).toBeGreaterThan(500)
    expect(other).toBeGreaterThan(50)
  })
})
