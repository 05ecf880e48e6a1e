import type { TranslatableRef } from './i18n.ts'

/** One reason a configuration was refused. `path` is empty for a whole-object refusal. */
export interface ConfigIssue {
  readonly path: readonly (string | number)[]
  /** Always kept: it is what an operator's log prints. */
  readonly message: string
  /** A bare key is read in the declaring spore's own domain. */
  readonly messageKey?: string | TranslatableRef
  readonly params?: Readonly<Record<string, unknown>>
}

export type ConfigParseResult<T> =
  | { readonly success: true; readonly data: T }
  | { readonly success: false; readonly error: { readonly issues: readonly ConfigIssue[] } }

export type JsonSchema = Readonly<Record<string, unknown>>

/**
 * Duck-typed rather than a Zod type: a plugin bundles its own Zod, so its schemas are not
 * instances of the core's. Anything with a compatible `safeParse` is accepted.
 */
export interface ConfigSchema<T = unknown> {
  safeParse(input: unknown): ConfigParseResult<T>
  /** Produces the settings form; optional, a plugin without it just gets no generated form. */
  toJsonSchema?(): JsonSchema
  /** Setting keys holding credentials: redacted on read, never logged. */
  readonly secrets?: readonly string[]
}
