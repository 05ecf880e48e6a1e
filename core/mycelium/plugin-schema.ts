import type { ConfigSchema, JsonSchema, Manifest } from '@mycelo/septum'
import { checkConfiguration } from '../germination/configuration.ts'
import { faultText } from '../germination/fault.ts'
import type { GerminatedSpore } from '../germination/index.ts'
import { loadModule } from '../germination/module-loading.ts'
import { DONE, type Refusal, refused } from './outcome.ts'

export type SchemaReading =
  | { readonly ok: true; readonly schema: ConfigSchema | undefined }
  | { readonly ok: false; readonly reason: string }

/**
 * The configSchema off a spore's default export. Germination read it for every spore it prepared;
 * a disabled spore's module was never imported, so it is loaded here, from the given manifest.
 */
export async function readConfigSchema(
  spore: GerminatedSpore,
  manifest: Manifest | undefined = spore.manifest,
): Promise<SchemaReading> {
  if (spore.configSchema !== undefined) return { ok: true, schema: spore.configSchema }
  if (spore.state === 'live') return { ok: true, schema: undefined }
  if (manifest === undefined) return { ok: false, reason: spore.reason ?? 'its manifest is refused' }
  const loaded = await loadModule(spore.dir, manifest)
  if (!loaded.ok) return { ok: false, reason: loaded.reason }
  return { ok: true, schema: loaded.module?.exported.configSchema }
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

/**
 * Whether a top-level JSON Schema accepts a key: declared as a property, matched by a pattern
 * property, or let through as an additional property (anything but `additionalProperties: false`).
 */
export function acceptsKey(schema: JsonSchema, key: string): boolean {
  const properties = schema.properties
  if (isRecord(properties) && Object.hasOwn(properties, key)) return true
  const patterns = schema.patternProperties
  if (isRecord(patterns) && Object.keys(patterns).some((pattern) => matches(pattern, key))) return true
  return schema.additionalProperties !== false
}

/** The checks germination runs on stored settings, as an Outcome whose refusal says which failed. */
export function checkStoredSettings(
  plugin: string,
  schema: ConfigSchema | undefined,
  settings: Record<string, unknown>,
): typeof DONE | Refusal {
  const check = checkConfiguration(schema, settings)
  if (check.ok) return DONE
  switch (check.problem) {
    case 'secrets_undeclared':
      return refused('secrets_undeclared', { plugin, keys: check.keys })
    case 'unchecked':
      return refused('configuration_unchecked', { plugin, reason: check.detail })
    case 'incomplete':
      return refused('configuration_incomplete', { plugin, issues: check.issues })
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
