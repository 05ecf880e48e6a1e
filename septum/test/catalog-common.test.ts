import { describe, expect, it } from 'bun:test'
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { z } from 'zod'
import type { ConfigIssue } from '../src/contract/config.ts'
import { type CompiledCatalog, compileCatalog, toConfigIssue } from '../src/index.ts'

const load = (locale: string): CompiledCatalog =>
  compileCatalog(
    locale,
    parse(readFileSync(new URL(`../../translations/common/${locale}.yaml`, import.meta.url), 'utf8')),
  )

// Noon UTC, so the rendered day is the same in any server time zone.
const feb1 = Date.UTC(2020, 1, 1, 12)
const mar1 = Date.UTC(2020, 2, 1, 12)

/** A bound Zod has no method for (an exclusive date, a map's size), raised through a real check. */
const raising = (issue: Record<string, unknown>) =>
  z.any().check((ctx) => {
    ctx.issues.push({ ...issue, input: ctx.value } as never)
  })

/** Real Zod issues, one or more per common key, as defineConfig asks Zod for them. */
const cases: readonly (readonly [z.ZodType, unknown])[] = [
  [z.object({ apiKey: z.string() }), {}],
  [z.string(), 5],
  [z.number(), 'five'],
  [z.int(), 1.5],
  [z.array(z.string()), { a: 1 }],
  [z.string().min(3), 'a'],
  [z.string().min(1), ''],
  [z.array(z.string()).min(2), []],
  [z.set(z.number()).min(2), new Set([1])],
  [z.file().min(10), new File(['x'], 'x.txt')],
  [raising({ code: 'too_small', origin: 'map', minimum: 2, inclusive: true }), new Map()],
  [z.string().length(4), 'a'],
  [z.number().min(1000), 0],
  [z.bigint().min(5n), 1n],
  [z.number().positive(), -1],
  [z.date().min(new Date(feb1)), new Date(0)],
  [raising({ code: 'too_small', origin: 'date', minimum: feb1, inclusive: false }), null],
  [z.string().max(2), 'abcd'],
  [z.array(z.number()).max(1), [1, 2]],
  [z.string().length(2), 'abc'],
  [z.number().max(10), 11],
  [z.number().negative(), 1],
  [z.date().max(new Date(feb1)), new Date(mar1)],
  [raising({ code: 'too_big', origin: 'date', maximum: feb1, inclusive: false }), null],
  [z.string().startsWith('sk-'), 'pk-1'],
  [z.string().endsWith('/'), 'a'],
  [z.string().includes('@'), 'a'],
  [z.string().regex(/^a+$/), 'b'],
  [z.email(), 'nope'],
  [z.url(), 'nope'],
  [z.string().lowercase(), 'ABC'],
  [z.hash('sha256'), 'nope'],
  [z.enum(['en', 'fr']), 'de'],
  [z.literal('on'), 'off'],
  [z.number().multipleOf(5), 7],
  [z.strictObject({}), { d: 1 }],
  [z.strictObject({}), { d: 1, e: 2 }],
]

const issuesOf = (schema: z.ZodType, input: unknown, reportInput = true): ConfigIssue[] => {
  const result = schema.safeParse(input, { reportInput })
  if (result.success) throw new Error('expected the schema to refuse the input')
  return result.error.issues.map(toConfigIssue)
}

// Without a reported input, invalid_type cannot name what it received.
const issues: ConfigIssue[] = [
  ...cases.flatMap(([schema, input]) => issuesOf(schema, input)),
  ...issuesOf(z.string(), 5, false),
]

const keyOf = (issue: ConfigIssue): string => {
  const ref = issue.messageKey
  if (typeof ref !== 'object' || ref.domain !== 'common') throw new Error(`no common key: ${issue.message}`)
  return ref.key
}

const render = (catalog: CompiledCatalog, issue: ConfigIssue): string => {
  const message = catalog.messages.get(keyOf(issue))
  if (message === undefined) throw new Error(`${catalog.locale} has no key ${keyOf(issue)}`)
  const text = message.format(issue.params as Record<string, string | number | bigint | boolean>)
  if (typeof text !== 'string') throw new Error(`${keyOf(issue)} did not render to text`)
  return text
}

describe('the common catalogue', () => {
  const en = load('en')
  const fr = load('fr')

  it('has exactly the same keys in en and fr', () => {
    expect([...fr.messages.keys()].sort()).toEqual([...en.messages.keys()].sort())
  })

  it('has every config key toConfigIssue produces, and no config key it never produces', () => {
    // The other sections (refusal.*) belong to the core and are tested with it.
    const configKeys = [...en.messages.keys()].filter((key) => key.startsWith('config.'))
    const produced = new Set(issues.map(keyOf))
    expect([...produced].sort()).toEqual(configKeys.sort())
  })

  it('renders every key with the params a real Zod issue gives it, in both languages', () => {
    for (const issue of issues) {
      for (const catalog of [en, fr]) {
        const text = render(catalog, issue)
        expect(text.length).toBeGreaterThan(0)
        expect(text).not.toMatch(/[{}]/)
      }
    }
  })

  it('reads as a person would write it', () => {
    const rendered = (schema: z.ZodType, input: unknown) => {
      const [issue] = issuesOf(schema, input)
      return [render(en, issue!), render(fr, issue!)]
    }
    expect(rendered(z.object({ apiKey: z.string() }), {})).toEqual([
      'Required (expected text)',
      'Obligatoire (attendu\u00a0: du texte)',
    ])
    expect(rendered(z.number(), 'five')).toEqual([
      'Expected a number, received text',
      'Attendu\u00a0: un nombre\u00a0; reçu\u00a0: du texte',
    ])
    expect(rendered(z.string().min(1), '')).toEqual([
      'Must be at least 1 character long',
      'Doit contenir au moins 1 caractère',
    ])
    expect(rendered(z.array(z.string()).min(2), [])).toEqual([
      'Must have at least 2 items',
      'Doit contenir au moins 2 éléments',
    ])
    expect(rendered(z.number().positive(), -1)).toEqual([
      'Must be greater than 0',
      'Doit être strictement supérieur à 0',
    ])
    expect(rendered(z.date().min(new Date(feb1)), new Date(0))).toEqual([
      'Must be on or after February 1, 2020',
      'Ne doit pas être antérieur au 1 février 2020',
    ])
    expect(rendered(z.email(), 'nope')).toEqual([
      'Must be a valid email address',
      'Doit être une adresse e-mail valide',
    ])
    expect(rendered(z.string().startsWith('sk-'), 'pk-1')).toEqual([
      'Must start with "sk-"',
      'Doit commencer par «\u00a0sk-\u00a0»',
    ])
    expect(rendered(z.enum(['en', 'fr']), 'de')).toEqual([
      'Must be one of "en", "fr"',
      'Doit être l’une des valeurs suivantes\u00a0: "en", "fr"',
    ])
    expect(rendered(z.literal('on'), 'off')).toEqual(['Must be "on"', 'Doit valoir "on"'])
    expect(rendered(z.strictObject({}), { d: 1 })).toEqual(['Unknown key: d', 'Clé inconnue\u00a0: d'])
    expect(rendered(z.strictObject({}), { d: 1, e: 2 })).toEqual([
      'Unknown keys: d, e',
      'Clés inconnues\u00a0: d, e',
    ])
    expect(rendered(z.number().multipleOf(5), 7)).toEqual([
      'Must be a multiple of 5',
      'Doit être un multiple de 5',
    ])
  })
})
