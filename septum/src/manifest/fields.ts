import { z } from 'zod'
import { CHANNEL_CAPABILITIES } from '../contract/vocabulary.ts'
import { listed, quote, typeProblem } from './wording.ts'

/** Plugin, command and arg names alike: lowercase letters, digits and dashes. */
export const NAME_PATTERN = /^[a-z0-9][a-z0-9-]*$/

export function nameField(missing: string) {
  return z.string({ error: typeProblem({ missing, expected: 'a name' }) }).regex(NAME_PATTERN, {
    error: (issue) =>
      `${quote(issue.input)} is not a valid name: use only lowercase letters, digits and dashes, ` +
      'starting with a letter or digit',
  })
}

/** A catalogue key such as `command.add.description`. */
export function catalogueKeyField(missing: string) {
  return z
    .string({ error: typeProblem({ missing, expected: 'a catalogue key' }) })
    .min(1, { error: 'must not be empty: it is a catalogue key, such as command.add.description' })
}

export const flagField = z.boolean({
  error: typeProblem({ missing: 'is missing', expected: 'true or false' }),
})

export const capabilitiesField = z.array(
  z.enum(CHANNEL_CAPABILITIES, {
    error: (issue) =>
      `${quote(issue.input)} is not a channel capability; use ${listed(CHANNEL_CAPABILITIES, 'or')}`,
  }),
  { error: typeProblem({ missing: 'is missing', expected: 'a list of channel capabilities' }) },
)

/** Index of the first entry whose name an earlier entry already took, or -1. */
export function firstDuplicate(names: readonly string[]): number {
  return names.findIndex((name, index) => names.indexOf(name) !== index)
}
