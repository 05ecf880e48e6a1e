import { describe, expect, it } from 'bun:test'
import { z } from 'zod'
import { type RawZodIssue, toConfigIssue } from '../src/config/index.ts'
import type { ConfigIssue } from '../src/contract/config.ts'

/** The single issue a schema raises for an input, as defineConfig asks Zod for it. */
const zodIssue = (schema: z.ZodType, input: unknown): RawZodIssue => {
  const result = schema.safeParse(input, { reportInput: true })
  if (result.success) throw new Error('expected the schema to refuse the input')
  expect(result.error.issues).toHaveLength(1)
  return result.error.issues[0]!
}
const mapped = (schema: z.ZodType, input: unknown): ConfigIssue => toConfigIssue(zodIssue(schema, input))
const common = (key: string) => ({ domain: 'common', key })

describe('toConfigIssue: refine and check issues', () => {
  it('carries a .refine() message verbatim as a bare key, keeping it as the message', () => {
    const issue = mapped(
      z.string().refine((s) => s.startsWith('http'), 'config.url.scheme'),
      'ftp://x',
    )
    expect(issue).toEqual({ path: [], message: 'config.url.scheme', messageKey: 'config.url.scheme' })
  })

  it('carries the params a .refine() declares', () => {
    const schema = z.number().refine((n) => n % 2 === 0, { message: 'config.even', params: { step: 2 } })
    expect(mapped(schema, 3)).toEqual({
      path: [],
      message: 'config.even',
      messageKey: 'config.even',
      params: { step: 2 },
    })
  })

  it('carries a .check() issue message as its key, with its path', () => {
    const schema = z.object({
      port: z.number().check((ctx) => {
        if (ctx.value === 0)
          ctx.issues.push({ code: 'custom', message: 'config.port.zero', input: ctx.value })
      }),
    })
    expect(mapped(schema, { port: 0 })).toEqual({
      path: ['port'],
      message: 'config.port.zero',
      messageKey: 'config.port.zero',
    })
  })
})

describe('toConfigIssue: the documented pitfall', () => {
  it('maps min(1, { error }) to the common key: the callback changed the message, not the code', () => {
    const issue = mapped(z.number().min(1, { error: () => 'my.key' }), 0)
    expect(issue.messageKey).toEqual(common('config.too_small.number'))
    expect(issue.messageKey).not.toBe('my.key')
    expect(issue.message).toBe('my.key')
    expect(issue.params).toMatchObject({ minimum: 1, inclusive: true })
  })
})

describe('toConfigIssue: the seven structural codes take a common key', () => {
  it('invalid_type names what was expected and what arrived, never the value itself', () => {
    const issue = mapped(z.object({ apiKey: z.string() }), { apiKey: 12345678 })
    expect(issue).toEqual({
      path: ['apiKey'],
      message: 'Invalid input: expected string, received number',
      messageKey: common('config.invalid_type.received'),
      params: { expected: 'string', received: 'number' },
    })
    expect(JSON.stringify(issue)).not.toContain('12345678')
  })

  it('invalid_type for an absent key says it is required', () => {
    expect(mapped(z.object({ url: z.url() }), {})).toMatchObject({
      path: ['url'],
      messageKey: common('config.invalid_type.missing'),
      params: { expected: 'string' },
    })
  })

  it('invalid_type keeps the received type Zod itself names (NaN) and class names', () => {
    expect(mapped(z.number(), Number.NaN).params).toEqual({ expected: 'number', received: 'NaN' })
    expect(mapped(z.string(), new Date(0)).params).toEqual({ expected: 'string', received: 'Date' })
    expect(mapped(z.string(), null).params).toEqual({ expected: 'string', received: 'null' })
    expect(mapped(z.string(), [1]).params).toEqual({ expected: 'string', received: 'array' })
  })

  it('invalid_type without a reported input names only what was expected', () => {
    const result = z.string().safeParse(5)
    if (result.success) throw new Error('expected a refusal')
    expect(toConfigIssue(result.error.issues[0]!)).toMatchObject({
      messageKey: common('config.invalid_type.expected'),
      params: { expected: 'string' },
    })
  })

  it('too_small and too_big pick a key by what is measured', () => {
    const cases: [z.ZodType, unknown, string, Record<string, unknown>][] = [
      [z.string().min(3), 'a', 'config.too_small.size', { origin: 'string', minimum: 3 }],
      [z.string().length(3), 'a', 'config.too_small.size_exact', { origin: 'string', minimum: 3 }],
      [z.array(z.number()).max(1), [1, 2], 'config.too_big.size', { origin: 'array', maximum: 1 }],
      [z.string().length(2), 'abc', 'config.too_big.size_exact', { origin: 'string', maximum: 2 }],
      [z.number().min(1), 0, 'config.too_small.number', { minimum: 1, inclusive: true }],
      [z.number().gt(1), 1, 'config.too_small.number_exclusive', { minimum: 1, inclusive: false }],
      [z.number().lte(9), 10, 'config.too_big.number', { maximum: 9, inclusive: true }],
      [z.number().lt(9), 9, 'config.too_big.number_exclusive', { maximum: 9, inclusive: false }],
      [z.date().min(new Date(86_400_000)), new Date(0), 'config.too_small.date', { minimum: 86_400_000 }],
      [z.date().max(new Date(0)), new Date(86_400_000), 'config.too_big.date', { maximum: 0 }],
    ]
    for (const [schema, input, key, params] of cases) {
      const issue = mapped(schema, input)
      expect(issue.messageKey).toEqual(common(key))
      expect(issue.params).toMatchObject(params)
    }
  })

  it('a strict bound on a count is reworded as an inclusive one', () => {
    const issue = toConfigIssue({
      code: 'too_small',
      path: [],
      message: 'm',
      origin: 'array',
      minimum: 2,
    } as RawZodIssue)
    expect(issue.messageKey).toEqual(common('config.too_small.size'))
    expect(issue.params).toMatchObject({ minimum: 3, inclusive: true })
  })

  it('invalid_format carries the detail its key interpolates', () => {
    expect(mapped(z.email(), 'nope')).toMatchObject({
      messageKey: common('config.invalid_format.generic'),
      params: { format: 'email' },
    })
    expect(mapped(z.string().startsWith('sk-'), 'pk-1').params).toEqual({
      format: 'starts_with',
      prefix: 'sk-',
    })
    expect(mapped(z.string().endsWith('/'), 'a').params).toEqual({ format: 'ends_with', suffix: '/' })
    expect(mapped(z.string().includes('@'), 'a').params).toEqual({ format: 'includes', includes: '@' })
    expect(mapped(z.string().regex(/^a+$/), 'b')).toMatchObject({
      messageKey: common('config.invalid_format.regex'),
      params: { format: 'regex', pattern: '/^a+$/' },
    })
  })

  it('invalid_format without the detail its specific key needs falls back to the generic key', () => {
    const issue = toConfigIssue({
      code: 'invalid_format',
      path: [],
      message: 'm',
      format: 'regex',
    } as RawZodIssue)
    expect(issue).toMatchObject({
      messageKey: common('config.invalid_format.generic'),
      params: { format: 'regex' },
    })
  })

  it('invalid_value joins the allowed values, quoting strings, and counts them', () => {
    expect(mapped(z.enum(['en', 'fr']), 'de')).toMatchObject({
      messageKey: common('config.invalid_value'),
      params: { values: '"en", "fr"', count: 2 },
    })
    expect(mapped(z.literal(3), 4).params).toEqual({ values: '3', count: 1 })
  })

  it('not_multiple_of carries the divisor', () => {
    expect(mapped(z.number().multipleOf(5), 7)).toMatchObject({
      messageKey: common('config.not_multiple_of'),
      params: { divisor: 5 },
    })
  })

  it('unrecognized_keys joins and counts the keys', () => {
    expect(mapped(z.strictObject({ a: z.string() }), { a: 'x', b: 1, c: 2 })).toMatchObject({
      path: [],
      messageKey: common('config.unrecognized_keys'),
      params: { keys: 'b, c', count: 2 },
    })
  })
})

describe('toConfigIssue: everything else', () => {
  it('gives any other code no messageKey, keeping the message as-is', () => {
    const issue = mapped(z.object({ id: z.union([z.string(), z.number()]) }), { id: true })
    expect(issue).toEqual({ path: ['id'], message: 'Invalid input' })
  })

  it('gives an issue with no code no messageKey', () => {
    expect(toConfigIssue({ path: ['a'], message: 'bad' })).toEqual({ path: ['a'], message: 'bad' })
  })

  it('keeps a nested path and turns symbol keys into strings', () => {
    const schema = z.object({ hosts: z.array(z.object({ port: z.number().positive() })) })
    expect(mapped(schema, { hosts: [{ port: -1 }] }).path).toEqual(['hosts', 0, 'port'])
    const issue = toConfigIssue({ code: 'custom', path: [Symbol('token'), 2], message: 'k' })
    expect(issue.path).toEqual(['Symbol(token)', 2])
  })
})
