import { z } from 'zod'
import type { ConfigParseResult, ConfigSchema, JsonSchema } from '../contract/config.ts'
import { toConfigIssue } from './config-issue.ts'

export interface DefineConfigOptions {
  /** Setting keys holding credentials: redacted on read, never logged. */
  readonly secrets?: readonly string[]
}

/** What defineConfig returns: a ConfigSchema whose optional members are always present. */
export interface DefinedConfig<T> extends ConfigSchema<T> {
  toJsonSchema(): JsonSchema
  readonly secrets: readonly string[]
}

/**
 * Wraps a schema built with septum's own Zod into the ConfigSchema shape, so the schema and the
 * JSON Schema converter always come from the same copy.
 */
export function defineConfig<S extends z.ZodType>(
  schema: S,
  options: DefineConfigOptions = {},
): DefinedConfig<z.output<S>> {
  const secrets = Object.freeze([...(options.secrets ?? [])])
  return {
    safeParse(input: unknown): ConfigParseResult<z.output<S>> {
      // The input is reported so a type mismatch can name what it received; toConfigIssue keeps
      // only its type, never the value.
      const result = schema.safeParse(input, { reportInput: true })
      if (result.success) return { success: true, data: result.data }
      return { success: false, error: { issues: result.error.issues.map(toConfigIssue) } }
    },
    // A field JSON Schema cannot express (a date, a transform) becomes an unconstrained one rather
    // than costing the plugin its whole settings form.
    toJsonSchema: () => z.toJSONSchema(schema, { unrepresentable: 'any' }),
    secrets,
  }
}
