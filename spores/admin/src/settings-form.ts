import type { FormSchema, JsonSchema } from '@mycelo/septum'
import { yesNo } from './answers.ts'
import type { AdminContext } from './mycelium.ts'

type AvailableForm = Extract<FormSchema, { available: true }>

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** One line per field of the form's JSON Schema: key, type, required, secret, and its description. */
export function formFields(form: AvailableForm, ctx: AdminContext): string[] {
  const properties = isRecord(form.schema.properties) ? form.schema.properties : {}
  const required = Array.isArray(form.schema.required) ? form.schema.required : []
  return Object.entries(properties).map(([key, property]) => {
    const field = isRecord(property) ? property : {}
    const line = ctx.t('form.field', {
      // A field the spore labels (a catalogue key's label, rendered by the core) shows that label first.
      key: typeof field.title === 'string' ? ctx.t('form.titled', { title: field.title, key }) : key,
      type: typeText(field, ctx),
      // A schema lists a field with a default as required in its output; the operator need not set it.
      required: yesNo(required.includes(key) && !('default' in field)),
      secret: yesNo(form.secrets.includes(key)),
    })
    return typeof field.description === 'string' && field.description !== ''
      ? ctx.t('form.described', { line, description: field.description })
      : line
  })
}

/** A field's type in the reader's words: an enum lists its values, a union joins its members. */
function typeText(field: JsonSchema, ctx: AdminContext): string {
  if (Array.isArray(field.enum)) {
    return ctx.t('form.oneOf', { values: field.enum.map((value) => JSON.stringify(value)).join(', ') })
  }
  const members = field.anyOf ?? field.oneOf
  if (Array.isArray(members)) {
    return members.map((member) => typeText(isRecord(member) ? member : {}, ctx)).join(' | ')
  }
  const types = Array.isArray(field.type) ? field.type : [field.type ?? 'any']
  return types.map((type) => ctx.t('form.type', { type: String(type) })).join(' | ')
}
