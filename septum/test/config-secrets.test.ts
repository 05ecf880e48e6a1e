import { describe, expect, it } from 'bun:test'
import { z } from 'zod'
import type { ConfigSchema } from '../src/contract/config.ts'
import { closedSchemaUndeclaredSecrets, defineConfig } from '../src/index.ts'

const fields = { url: z.url(), apiKey: z.string() }

describe('what z.toJSONSchema publishes for an object', () => {
  it('closes z.object (it strips unknown keys) and z.strictObject, leaves z.looseObject open', () => {
    expect(defineConfig(z.object(fields)).toJsonSchema().additionalProperties).toBe(false)
    expect(defineConfig(z.strictObject(fields)).toJsonSchema().additionalProperties).toBe(false)
    expect(defineConfig(z.looseObject(fields)).toJsonSchema().additionalProperties).toEqual({})
  })
})

describe('closedSchemaUndeclaredSecrets', () => {
  it('names a secret a z.object does not declare', () => {
    const config = defineConfig(z.object(fields), { secrets: ['apiKey', 'apiKye'] })
    expect(closedSchemaUndeclaredSecrets(config)).toEqual(['apiKye'])
  })

  it('names a secret a z.strictObject does not declare', () => {
    const config = defineConfig(z.strictObject(fields), { secrets: ['token'] })
    expect(closedSchemaUndeclaredSecrets(config)).toEqual(['token'])
  })

  it('exempts a z.looseObject: an open schema may take the key', () => {
    const config = defineConfig(z.looseObject(fields), { secrets: ['token'] })
    expect(closedSchemaUndeclaredSecrets(config)).toEqual([])
  })

  it('exempts an object with a catchall, which is open too', () => {
    const config = defineConfig(z.object(fields).catchall(z.string()), { secrets: ['token'] })
    expect(closedSchemaUndeclaredSecrets(config)).toEqual([])
  })

  it('answers nothing when every secret is declared, or none is named', () => {
    expect(closedSchemaUndeclaredSecrets(defineConfig(z.object(fields), { secrets: ['apiKey'] }))).toEqual([])
    expect(closedSchemaUndeclaredSecrets(defineConfig(z.object(fields)))).toEqual([])
  })

  it('exempts a hand-rolled schema without toJsonSchema', () => {
    const config: ConfigSchema = {
      safeParse: (input) => ({ success: true, data: input }),
      secrets: ['anything'],
    }
    expect(closedSchemaUndeclaredSecrets(config)).toEqual([])
  })

  it('reads a hand-rolled closed JSON Schema, pattern properties included', () => {
    const config: ConfigSchema = {
      safeParse: (input) => ({ success: true, data: input }),
      toJsonSchema: () => ({
        type: 'object',
        properties: { apiKey: { type: 'string' } },
        patternProperties: { '^token_': { type: 'string' } },
        additionalProperties: false,
      }),
      secrets: ['apiKey', 'token_discord', 'password'],
    }
    expect(closedSchemaUndeclaredSecrets(config)).toEqual(['password'])
  })

  it('exempts a top-level schema that is not an object', () => {
    const config = defineConfig(z.string(), { secrets: ['apiKey'] })
    expect(closedSchemaUndeclaredSecrets(config)).toEqual([])
  })
})
