import type { OperationSchema } from '@mycelo/septum'

/** A schema's verdict on a value; a throwing refinement is not a verdict but a host fault. */
export type Decoding<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: readonly string[] }

/** A schema that threw while judging: the host's fault, never the model's invalid input. */
export class SchemaFault extends Error {
  override readonly name = 'SchemaFault'
  constructor(
    readonly side: 'input' | 'output',
    override readonly cause: unknown,
  ) {
    super(`the ${side} schema threw while validating`)
  }
}

/** Runs a Standard Schema; its own throw becomes a SchemaFault. */
export async function decode<T>(
  schema: OperationSchema<T>,
  value: unknown,
  side: 'input' | 'output',
): Promise<Decoding<T>> {
  let result: Awaited<ReturnType<OperationSchema<T>['~standard']['validate']>>
  try {
    result = await schema['~standard'].validate(value)
  } catch (error) {
    throw new SchemaFault(side, error)
  }
  if (result.issues !== undefined) return { ok: false, issues: result.issues.map((issue) => issue.message) }
  return { ok: true, value: result.value }
}

export function isOperationSchema(value: unknown): value is OperationSchema {
  if (typeof value !== 'object' || value === null) return false
  const standard = (value as { '~standard'?: unknown })['~standard']
  if (typeof standard !== 'object' || standard === null) return false
  const { validate, jsonSchema } = standard as { validate?: unknown; jsonSchema?: { input?: unknown } }
  return typeof validate === 'function' && typeof jsonSchema?.input === 'function'
}

/**
 * The JSON Schema a schema publishes for one side, through Standard JSON Schema. Keys a library
 * leaves behind (`~standard`) are dropped: only JSON reaches the catalogue.
 */
export function jsonSchemaOf(schema: OperationSchema, side: 'input' | 'output'): Record<string, unknown> {
  const published = schema['~standard'].jsonSchema![side]({ target: 'draft-2020-12' })
  return JSON.parse(JSON.stringify(published, (key, value) => (key.startsWith('~') ? undefined : value)))
}
