// A settings form a person can read: each field's label and help from the spore's own catalogue.
import type { JsonSchema } from '@mycelo/septum'
import { SILENT } from '../boot/catalogues.ts'
import type { Translator } from '../i18n/translator.ts'

/** A description that names a catalogue key rather than saying something: `settings.city`. */
export const CATALOGUE_KEY = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)+$/

/**
 * Reads each top-level field's `description` (Zod's `.describe()`) as a key of the spore's domain:
 * `<key>.label` becomes the field's title, `<key>.help` (or `<key>` itself) its description, in
 * `locale`. A description that is no key, or that no catalogue knows, stays as written. A field
 * with a default is no longer listed as required: the operator need not set it.
 */
export function labelledForm(
  schema: JsonSchema,
  o: { spore: string; locale: string; translator: Translator },
) {
  const properties = isRecord(schema.properties) ? schema.properties : undefined
  if (properties === undefined) return schema
  const said = (key: string) => {
    const text = o.translator.render({ domain: o.spore, key }, o.locale, SILENT)
    return text === key ? undefined : text
  }
  const labelled = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => {
      if (
        !isRecord(property) ||
        typeof property.description !== 'string' ||
        !CATALOGUE_KEY.test(property.description)
      )
        return [name, property]
      const key = property.description
      const title = said(`${key}.label`)
      const help = said(`${key}.help`) ?? said(key)
      return [
        name,
        {
          ...property,
          ...(title === undefined ? {} : { title }),
          ...(help === undefined ? {} : { description: help }),
        },
      ]
    }),
  )
  const required = Array.isArray(schema.required)
    ? schema.required.filter((name) => !(isRecord(labelled[name]) && 'default' in labelled[name]))
    : undefined
  return { ...schema, properties: labelled, ...(required === undefined ? {} : { required }) }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
