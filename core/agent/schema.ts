import type { AnyOperationSchema, OperationSchema } from '@mycelo/septum'
import { Cause, Effect, Exit, Schema } from 'effect'

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

type EffectSchema = Schema.Top

// One canonical JSON codec per Effect schema: the description, the decoder and the encoder agree.
const codecs = new WeakMap<object, EffectSchema>()

function codecOf(schema: EffectSchema): EffectSchema {
  let codec = codecs.get(schema)
  if (codec === undefined) {
    codec = Schema.toCodecJson(schema) as unknown as EffectSchema
    codecs.set(schema, codec)
  }
  return codec
}

/**
 * Input is decoded by its schema; output is encoded by an Effect schema (so a codec such as
 * NumberFromString answers "1") and validated by a Standard one. A schema that throws, or an
 * Effect transformation that dies, is a SchemaFault.
 */
export async function decode<T>(
  schema: AnyOperationSchema<T>,
  value: unknown,
  side: 'input' | 'output',
): Promise<Decoding<T>> {
  if (Schema.isSchema(schema)) return viaEffect(schema, value, side) as Promise<Decoding<T>>
  const standard = schema as OperationSchema<T>
  let result: Awaited<ReturnType<OperationSchema<T>['~standard']['validate']>>
  try {
    result = await standard['~standard'].validate(value)
  } catch (error) {
    throw new SchemaFault(side, error)
  }
  if (result.issues !== undefined) return { ok: false, issues: result.issues.map((issue) => issue.message) }
  return { ok: true, value: result.value }
}

async function viaEffect(schema: EffectSchema, value: unknown, side: 'input' | 'output') {
  const codec = codecOf(schema) as Schema.Codec<unknown, unknown>
  const run = side === 'input' ? Schema.decodeUnknownEffect(codec) : Schema.encodeUnknownEffect(codec)
  const exit = await Effect.runPromiseExit(run(value))
  if (Exit.isSuccess(exit)) return { ok: true as const, value: exit.value }
  const failed = exit.cause.reasons.find(Cause.isFailReason)
  // A failure is the schema's verdict; a defect (a throwing transformation or filter) is not.
  if (failed !== undefined && Schema.isSchemaError(failed.error)) {
    return { ok: false as const, issues: [failed.error.message] }
  }
  throw new SchemaFault(side, Cause.squash(exit.cause))
}

/** A Standard Schema with Standard JSON Schema, or an Effect Schema. */
export function isOperationSchema(value: unknown): value is AnyOperationSchema {
  // An Effect schema may be a function (a class schema): checked before the object test.
  if (Schema.isSchema(value)) return true
  if (typeof value !== 'object' || value === null) return false
  const standard = (value as { '~standard'?: unknown })['~standard']
  if (typeof standard !== 'object' || standard === null) return false
  const { validate, jsonSchema } = standard as { validate?: unknown; jsonSchema?: { input?: unknown } }
  return typeof validate === 'function' && typeof jsonSchema?.input === 'function'
}

/**
 * The JSON Schema a schema publishes for one side: through Standard JSON Schema, or an Effect
 * schema's JSON codec (the same on both sides: what crosses is its JSON form). Keys a library
 * leaves behind (`~standard`) are dropped: only JSON reaches the catalogue.
 */
export function jsonSchemaOf(schema: AnyOperationSchema, side: 'input' | 'output'): Record<string, unknown> {
  const published = Schema.isSchema(schema)
    ? effectJsonSchema(schema)
    : (schema as OperationSchema)['~standard'].jsonSchema![side]({ target: 'draft-2020-12' })
  return JSON.parse(JSON.stringify(published, (key, value) => (key.startsWith('~') ? undefined : value)))
}

function effectJsonSchema(schema: EffectSchema): Record<string, unknown> {
  const document = Schema.toJsonSchemaDocument(codecOf(schema))
  const definitions = document.definitions as Record<string, unknown>
  return Object.keys(definitions).length === 0
    ? (document.schema as Record<string, unknown>)
    : { ...(document.schema as Record<string, unknown>), $defs: definitions }
}
