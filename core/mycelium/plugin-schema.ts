import type { ConfigIssue, ConfigSchema, JsonSchema, Manifest } from '@mycelo/septum'
import { checkConfiguration } from '../germination/configuration.ts'
import { faultText } from '../germination/fault.ts'
import type { GerminatedSpore } from '../germination/index.ts'
import { loadModule } from '../germination/module-loading.ts'
import { hostKeeper } from '../hosts/keeper.ts'
import { listInWords } from '../i18n/reason-words.ts'
import type { Translator } from '../i18n/translator.ts'
import { DONE, type Refusal, refused } from './outcome.ts'
import { readerLocale } from './reader-locale.ts'

export type SchemaReading =
  | { readonly ok: true; readonly schema: ConfigSchema | undefined }
  | { readonly ok: false; readonly reason: string }

/**
 * Lends `use` the configSchema off a spore's default export. Germination read it for every spore
 * it prepared; a disabled or dormant spore's module was never kept, so it is loaded for this read,
 * from the given manifest, where the isolation policy says the spore runs: an isolated spore's code
 * runs in a host of its own, never on the bot's thread, and that host is ended once `use` is done.
 */
export async function withConfigSchema<T>(
  spore: GerminatedSpore,
  manifest: Manifest | undefined,
  use: (reading: SchemaReading) => Promise<T>,
): Promise<T> {
  // An isolated spore that is not running has no host left to answer for the schema it had.
  const hostless = spore.state !== 'live' && hostKeeper.isolationOf(spore.name, spore.dir) === 'worker'
  if (spore.configSchema !== undefined && !hostless) return use({ ok: true, schema: spore.configSchema })
  if (spore.state === 'live') return use({ ok: true, schema: undefined })
  if (manifest === undefined) return use({ ok: false, reason: spore.reason ?? 'its manifest is refused' })
  const loaded = await loadModule(spore.dir, manifest, { spore: spore.name, transient: true })
  if (!loaded.ok) return use({ ok: false, reason: loaded.reason })
  try {
    return await use({ ok: true, schema: loaded.module?.exported.configSchema })
  } finally {
    hostKeeper.end(loaded.module?.host)
  }
}

export type JsonSchemaReading =
  | { readonly ok: true; readonly schema: JsonSchema }
  | { readonly ok: false; readonly reason: string }

/** The published JSON Schema; a throwing toJsonSchema() is a reason, never an exception. */
export function publishedJsonSchema(schema: ConfigSchema | undefined): JsonSchemaReading {
  if (schema === undefined) return { ok: false, reason: 'the plugin declares no configuration' }
  if (typeof schema.toJsonSchema !== 'function') {
    return { ok: false, reason: 'the configuration schema publishes no JSON Schema' }
  }
  try {
    const published = schema.toJsonSchema()
    if (typeof published !== 'object' || published === null) {
      return { ok: false, reason: 'toJsonSchema() gave no JSON Schema object' }
    }
    return { ok: true, schema: published }
  } catch (error) {
    return { ok: false, reason: `toJsonSchema() threw: ${faultText(error)}` }
  }
}

/** A name, not a path: letters, digits, `_`, `-` and single dots, at most 128 characters. */
const SETTING_KEY = /^[\p{L}\p{N}_$][\p{L}\p{N}_$-]*(?:\.[\p{L}\p{N}_$-]+)*$/u
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype'])

/**
 * Whether `key` could be a setting's name at all: no separator, control character or `..`, nor a
 * name an object's prototype answers to. Checked for every spore, whatever its schema allows.
 */
export function isSettingKey(key: string): boolean {
  return key.length <= 128 && SETTING_KEY.test(key) && !PROTOTYPE_KEYS.has(key)
}

/**
 * Whether a top-level JSON Schema accepts a key: declared as a property, matched by a pattern
 * property, or let through as an additional property (anything but `additionalProperties: false`).
 * A union (`anyOf`/`oneOf`, as a discriminated union publishes) accepts what any member accepts;
 * an intersection (`allOf`) what any member declares, or what every member leaves open.
 */
export function acceptsKey(schema: JsonSchema, key: string): boolean {
  const members = unionMembers(schema)
  if (members !== undefined) return members.some((member) => acceptsKey(member, key))
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.filter(isRecord)
    if (parts.some((part) => declaresKey(part, key))) return true
    if (parts.some((part) => !acceptsKey(part, key))) return false
  }
  return declaresKey(schema, key) || schema.additionalProperties !== false
}

function declaresKey(schema: JsonSchema, key: string): boolean {
  const properties = schema.properties
  if (isRecord(properties) && Object.hasOwn(properties, key)) return true
  const patterns = schema.patternProperties
  return isRecord(patterns) && Object.keys(patterns).some((pattern) => matches(pattern, key))
}

/** The members of a schema that is a union with no properties of its own, else undefined. */
function unionMembers(schema: JsonSchema): JsonSchema[] | undefined {
  if (isRecord(schema.properties)) return undefined
  const members = schema.anyOf ?? schema.oneOf
  return Array.isArray(members) ? members.filter(isRecord) : undefined
}

/** How a plugin's schema judges one key of would-be settings. */
export type SettingJudgement =
  | { readonly ok: true }
  /** The issues the schema raised under this key, each `path: message`. */
  | { readonly ok: false; readonly problems: string }

/**
 * Validates the whole would-be settings (the stored ones with this key's value replaced) and
 * refuses only on issues under this key: a key validated alone would fail a schema whose other
 * keys are still missing, and another key's issue must not block writing this one. A schema whose
 * safeParse throws or answers nonsense cannot judge: the write goes ahead, as with no schema.
 */
export async function judgeSetting(options: {
  readonly schema: ConfigSchema | undefined
  readonly settings: Readonly<Record<string, unknown>>
  readonly key: string
  /** Words one issue, e.g. through its messageKey. */
  readonly word: (issue: ConfigIssue) => string
}): Promise<SettingJudgement> {
  const { schema, settings, key, word } = options
  if (schema === undefined) return { ok: true }
  let result: ReturnType<ConfigSchema['safeParse']>
  try {
    result = await schema.safeParse(settings)
  } catch {
    return { ok: true }
  }
  if (typeof result !== 'object' || result === null || result.success !== false) return { ok: true }
  const issues = Array.isArray(result.error?.issues) ? result.error.issues : []
  const mine = issues.filter((issue) => Array.isArray(issue.path) && issue.path[0] === key)
  if (mine.length === 0) return { ok: true }
  const problems = mine.map((issue) => `${issue.path.join('.')}: ${word(issue)}`).join('; ')
  return { ok: false, problems }
}

/** The checks germination runs on stored settings, as an Outcome whose refusal says which failed. */
export async function checkStoredSettings(
  plugin: string,
  schema: ConfigSchema | undefined,
  settings: Record<string, unknown>,
  /** Words the problems for whoever asked, so the refusal reads in their language. */
  translator?: Translator,
): Promise<typeof DONE | Refusal> {
  const check = await checkConfiguration(schema, settings, plugin)
  if (check.ok) return DONE
  switch (check.problem) {
    case 'secrets_undeclared':
      return refused('secrets_undeclared', { plugin, keys: check.keys })
    case 'unchecked':
      return refused('configuration_unchecked', { plugin, reason: check.detail })
    case 'incomplete':
      return refused('configuration_incomplete', {
        plugin,
        issues:
          translator === undefined
            ? check.issues
            : listInWords(translator, check.issueRefs, readerLocale(translator.defaultLocale)),
      })
  }
}

function matches(pattern: string, key: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(key)
  } catch {
    return false
  }
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
