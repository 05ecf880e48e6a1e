// A settings form read field by field, the same on every surface that words it (chat's
// /admin.form, the command line's `form`): what each field is called, takes, and whether it must be set.
import type { FormSchema, JsonSchema } from '../contract/index.ts'

/** What a field takes: one of listed values, one of several shapes, or JSON Schema types. */
export type FieldType =
  | { readonly kind: 'oneOf'; readonly values: readonly unknown[] }
  | { readonly kind: 'anyOf'; readonly members: readonly FieldType[] }
  | { readonly kind: 'types'; readonly types: readonly string[] }

export interface FormField {
  readonly key: string
  /** The field's label, from the spore's catalogue (or a `title` in its schema). */
  readonly title?: string
  /** Its help, from the catalogue or the schema's own description. */
  readonly help?: string
  readonly type: FieldType
  /** Whether the operator must set it: listed as required, with no default to fall back on. */
  readonly required: boolean
  readonly secret: boolean
  /** Whether it has a default, and which. */
  readonly hasDefault: boolean
  readonly default?: unknown
}

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Each top-level field of an available form, in the schema's order. */
export function formFields(form: Extract<FormSchema, { available: true }>): FormField[] {
  const properties = isRecord(form.schema.properties) ? form.schema.properties : {}
  const required = Array.isArray(form.schema.required) ? form.schema.required : []
  return Object.entries(properties).map(([key, property]) => {
    const field: JsonSchema = isRecord(property) ? property : {}
    const hasDefault = 'default' in field
    return {
      key,
      ...(typeof field.title === 'string' && field.title !== '' ? { title: field.title } : {}),
      ...(typeof field.description === 'string' && field.description !== ''
        ? { help: field.description }
        : {}),
      type: fieldType(field),
      // A schema lists a field with a default as required in its output; the operator need not set it.
      required: required.includes(key) && !hasDefault,
      secret: form.secrets.includes(key),
      hasDefault,
      ...(hasDefault ? { default: field.default } : {}),
    }
  })
}

function fieldType(field: JsonSchema): FieldType {
  if (Array.isArray(field.enum)) return { kind: 'oneOf', values: field.enum }
  const members = field.anyOf ?? field.oneOf
  if (Array.isArray(members))
    return { kind: 'anyOf', members: members.map((member) => fieldType(isRecord(member) ? member : {})) }
  const types = Array.isArray(field.type) ? field.type : [field.type ?? 'any']
  return { kind: 'types', types: types.map(String) }
}
