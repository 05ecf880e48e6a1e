import { describe, expect, it } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import module from '../src/index.ts'

const schema = module.configSchema

describe('the discord settings', () => {
  it('accepts a token alone, and a guild list with an API base', () => {
    expect(schema.safeParse({ token: 'abc' })).toEqual({ success: true, data: { token: 'abc' } })
    const full = { token: 'abc', guilds: ['123456789012345678'], apiBaseUrl: 'http://127.0.0.1:9/api' }
    expect(schema.safeParse(full)).toEqual({ success: true, data: full })
  })

  it('refuses a missing or empty token, naming the field', () => {
    for (const input of [{}, { token: '' }]) {
      const result = schema.safeParse(input)
      expect(result.success).toBe(false)
      if (!result.success) expect(result.error.issues.map((issue) => issue.path)).toEqual([['token']])
    }
  })

  it('refuses a guild id that is no snowflake', () => {
    const result = schema.safeParse({ token: 'abc', guilds: ['general'] })
    expect(result.success).toBe(false)
    if (!result.success) expect(result.error.issues[0]?.path).toEqual(['guilds', 0])
  })

  it('refuses an API base that is not http(s)', () => {
    const result = schema.safeParse({ token: 'abc', apiBaseUrl: 'ftp://example.com/api' })
    expect(result.success).toBe(false)
    if (!result.success) expect(result.error.issues[0]?.path).toEqual(['apiBaseUrl'])
  })

  it('declares the token a secret and publishes a form with every setting described', () => {
    expect(schema.secrets).toEqual(['token'])
    const json = schema.toJsonSchema() as {
      properties: Record<string, { description?: string }>
      required: string[]
    }
    expect(Object.keys(json.properties).sort()).toEqual(['apiBaseUrl', 'guilds', 'token'])
    expect(json.required).toEqual(['token'])
    // Each is described by a key of the spore's catalogue, which labels it in English and French.
    const catalogues = Object.fromEntries(
      ['en', 'fr'].map((locale) => [
        locale,
        parse(readFileSync(join(import.meta.dir, '..', 'translations', `${locale}.yaml`), 'utf8')),
      ]),
    )
    for (const [key, property] of Object.entries(json.properties)) {
      expect(property.description).toBe(`settings.${key}`)
      for (const locale of ['en', 'fr']) {
        expect(catalogues[locale].settings[key].label, `${locale} ${key}`).toBeString()
        expect(catalogues[locale].settings[key].help, `${locale} ${key}`).toBeString()
      }
    }
    expect(catalogues.en.settings.token.help).toContain('Reset Token')
  })
})
