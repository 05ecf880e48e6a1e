import { describe, expect, it } from 'bun:test'
import { z } from 'zod'
import type { ConfigSchema } from '../src/contract/config.ts'
import { defineConfig } from '../src/index.ts'

describe('defineConfig', () => {
  const schema = z.object({ url: z.url(), apiKey: z.string().min(1), retries: z.number().int().default(3) })

  it('answers the parsed data, defaults applied, on success', () => {
    const config = defineConfig(schema)
    const result = config.safeParse({ url: 'https://radarr.local', apiKey: 'k' })
    expect(result).toEqual({ success: true, data: { url: 'https://radarr.local', apiKey: 'k', retries: 3 } })
    if (result.success) {
      // The data is typed from the schema's output.
      const retries: number = result.data.retries
      expect(retries).toBe(3)
    }
  })

  it('answers every issue as a ConfigIssue, the English message kept beside the key', () => {
    const result = defineConfig(schema).safeParse({ url: 'not a url', apiKey: '' })
    expect(result).toEqual({
      success: false,
      error: {
        issues: [
          {
            path: ['url'],
            message: 'Invalid URL',
            messageKey: { domain: 'common', key: 'config.invalid_format.generic' },
            params: { format: 'url' },
          },
          {
            path: ['apiKey'],
            message: 'Too small: expected string to have >=1 characters',
            messageKey: { domain: 'common', key: 'config.too_small.size' },
            params: { origin: 'string', minimum: 1, inclusive: true, exact: false },
          },
        ],
      },
    })
  })

  it('never lets a refused value reach the issues: it may be a credential', () => {
    const config = defineConfig(z.object({ apiKey: z.string().length(4) }), { secrets: ['apiKey'] })
    const result = config.safeParse({ apiKey: 'hunter2-secret' })
    expect(result.success).toBe(false)
    expect(JSON.stringify(result)).not.toContain('hunter2')
  })

  it('reads a refine key in the spore domain and a failed whole-object refine with an empty path', () => {
    const config = defineConfig(
      z.object({ from: z.number(), to: z.number() }).refine((r) => r.from <= r.to, 'config.range.order'),
    )
    expect(config.safeParse({ from: 2, to: 1 })).toEqual({
      success: false,
      error: { issues: [{ path: [], message: 'config.range.order', messageKey: 'config.range.order' }] },
    })
  })

  it('publishes the JSON Schema zod 4 itself produces', () => {
    expect(defineConfig(schema).toJsonSchema()).toEqual(z.toJSONSchema(schema) as Record<string, unknown>)
    expect(defineConfig(schema).toJsonSchema()).toMatchObject({
      type: 'object',
      properties: { url: { type: 'string', format: 'uri' }, retries: { type: 'integer', default: 3 } },
      additionalProperties: false,
    })
  })

  it('publishes a field JSON Schema cannot express as an unconstrained one instead of throwing', () => {
    const withDate = z.object({ since: z.date(), name: z.string() })
    expect(() => z.toJSONSchema(withDate)).toThrow('Date cannot be represented in JSON Schema')
    expect(defineConfig(withDate).toJsonSchema()).toMatchObject({
      properties: { since: {}, name: { type: 'string' } },
    })
  })

  it('lists the secrets it was given, and none by default', () => {
    expect(defineConfig(schema).secrets).toEqual([])
    const given = ['apiKey']
    const config = defineConfig(schema, { secrets: given })
    given.push('url')
    expect(config.secrets).toEqual(['apiKey'])
    expect(Object.isFrozen(config.secrets)).toBe(true)
  })

  it('is a ConfigSchema, as is the hand-rolled shape with only safeParse', () => {
    const handRolled: ConfigSchema<{ apiKey: string }> = {
      safeParse: (input) => {
        const apiKey = (input as { apiKey?: unknown } | null)?.apiKey
        return typeof apiKey === 'string' && apiKey.length > 0
          ? { success: true, data: { apiKey } }
          : { success: false, error: { issues: [{ path: ['apiKey'], message: 'apiKey is required' }] } }
      },
    }
    const defined: ConfigSchema<{ apiKey: string }> = defineConfig(z.object({ apiKey: z.string().min(1) }))
    const accepted: ConfigSchema[] = [handRolled, defined]
    expect(accepted.map((config) => config.safeParse({ apiKey: 'k' }).success)).toEqual([true, true])
    expect(handRolled.safeParse(null)).toEqual({
      success: false,
      error: { issues: [{ path: ['apiKey'], message: 'apiKey is required' }] },
    })
  })
})
