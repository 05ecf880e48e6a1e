import type { ConfigSchema, JsonSchema } from '../contract/config.ts'

/**
 * The `secrets` entries a closed schema does not declare as properties. Only a closed JSON Schema
 * (a top-level object with `additionalProperties: false`) can prove a key undeclared: a schema that
 * publishes none, or an open one, yields []. A throwing toJsonSchema() propagates: it is a fault.
 */
export function closedSchemaUndeclaredSecrets(config: ConfigSchema): readonly string[] {
  const secrets = config.secrets ?? []
  if (secrets.length === 0 || config.toJsonSchema === undefined) return []
  const schema = config.toJsonSchema()
  if (!isClosedObject(schema)) return []
  const properties = isRecord(schema.properties) ? schema.properties : {}
  const patterns = isRecord(schema.patternProperties)
    ? Object.keys(schema.patternProperties).map((pattern) => new RegExp(pattern, 'u'))
    : []
  return secrets.filter(
    (key) => !Object.hasOwn(properties, key) && !patterns.some((pattern) => pattern.test(key)),
  )
}

function isClosedObject(schema: JsonSchema): boolean {
  return (schema.type === undefined || schema.type === 'object') && schema.additionalProperties === false
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
