import { type FieldType, type FormSchema, formFields as fieldsOf } from '@mycelo/septum'
import { yesNo } from './answers.ts'
import type { AdminContext } from './mycelium.ts'

type AvailableForm = Extract<FormSchema, { available: true }>

/** One line per field of the form: its label (or key), type, default, required, secret, and its help. */
export function formFields(form: AvailableForm, ctx: AdminContext): string[] {
  return fieldsOf(form).map((field) => {
    const line = ctx.t('form.field', {
      // A field the spore labels (a catalogue key's label, rendered by the core) shows that label first.
      key:
        field.title === undefined ? field.key : ctx.t('form.titled', { title: field.title, key: field.key }),
      type: typeText(field.type, ctx),
      hasDefault: yesNo(field.hasDefault),
      default: JSON.stringify(field.default),
      required: yesNo(field.required),
      secret: yesNo(field.secret),
    })
    return field.help === undefined ? line : ctx.t('form.described', { line, description: field.help })
  })
}

/** A field's type in the reader's words: an enum lists its values, a union joins its members. */
function typeText(type: FieldType, ctx: AdminContext): string {
  if (type.kind === 'oneOf')
    return ctx.t('form.oneOf', { values: type.values.map((value) => JSON.stringify(value)).join(', ') })
  if (type.kind === 'anyOf') return type.members.map((member) => typeText(member, ctx)).join(' | ')
  return type.types.map((each) => ctx.t('form.type', { type: each })).join(' | ')
}
