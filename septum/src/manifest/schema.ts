import { z } from 'zod'
import { PLUGIN_KINDS, type PluginKind } from '../contract/vocabulary.ts'
import { checkRange } from '../range/index.ts'
import { commandsField } from './command.ts'
import { capabilitiesField, flagField, nameField } from './fields.ts'
import { requirementSchema } from './requirement.ts'
import { routesField } from './route.ts'
import { describe, listed, quote, typeProblem } from './wording.ts'

/** Longer than any sensible range (`>=1.2.3 <2.0.0 || >=3.0.0 <4.0.0` is 32 characters). */
const RANGE_LIMIT = 100

const septumString = z
  .string({
    error: typeProblem({
      missing: 'is missing; every manifest declares the septum range it targets, such as ^1.0',
      expected: 'a version range such as ^1.0',
    }),
  })
  // Aborts so an empty range is refused for its length alone, never handed to the range matcher.
  .min(1, {
    error: 'must not be empty; declare the septum range the plugin targets, such as ^1.0',
    abort: true,
  })
  // The range matcher quotes the range in its refusals; one this long is no range, and is not quoted.
  .max(RANGE_LIMIT, {
    error: (issue) =>
      `is ${String(issue.input).length} characters long, too long for a version range such as ^1.0`,
    abort: true,
  })
  .superRefine((text, ctx) => {
    const checked = checkRange(text)
    if (!checked.ok) ctx.addIssue({ code: 'custom', message: checked.message })
  })

// YAML reads a bare `septum:` as null; the author wrote an empty range, so it gets the empty-range answer.
const septumField = z.preprocess((value) => (value === null ? '' : value), septumString)

const commonShape = {
  name: nameField('is missing; every manifest names its plugin'),
  septum: septumField,
  description: z.string({ error: typeProblem({ missing: 'is missing', expected: 'a string' }) }).optional(),
  externals: z
    .array(
      z
        .string({ error: (issue) => `must be an npm package name, not ${describe(issue.input)}` })
        .min(1, { error: 'must be an npm package name, not empty' }),
      { error: typeProblem({ missing: 'is missing', expected: 'a list of npm package names' }) },
    )
    .optional(),
  requires: z
    .array(requirementSchema, {
      error: typeProblem({ missing: 'is missing', expected: 'a list of requirements' }),
    })
    .optional(),
  // septum 1.1: HTTP routes mounted under /spores/<name>; any kind may declare them.
  routes: routesField.optional(),
}

/** The fields only one kind declares, so a stray one is reported as misplaced rather than unknown. */
const KIND_FIELDS: Readonly<Record<string, PluginKind>> = {
  capabilities: 'hypha',
  commands: 'enzyme',
  enforcing: 'inhibitor',
}

const COMMON_FIELDS = ['kind', ...Object.keys(commonShape)]
const KIND_FIELD_LIST = listed(
  Object.entries(KIND_FIELDS).map(([field, kind]) => `${field} (${kind})`),
  'or',
)

function article(kind: PluginKind): string {
  return kind === 'enzyme' || kind === 'inhibitor' ? 'an' : 'a'
}

function strayField(kind: PluginKind, key: string): string {
  const owner = KIND_FIELDS[key]
  if (owner !== undefined) {
    return `only ${article(owner)} ${owner} manifest declares ${key}, and this one is ${article(kind)} ${kind}`
  }
  return `is not a manifest field; a manifest carries ${COMMON_FIELDS.join(', ')}, plus ${KIND_FIELD_LIST}`
}

function kindSchema<K extends PluginKind, S extends z.core.$ZodLooseShape>(kind: K, shape: S) {
  return z.strictObject(
    { kind: z.literal(kind), ...commonShape, ...shape },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys' ? strayField(kind, String(issue.keys[0])) : undefined,
    },
  )
}

const kindProblem = typeProblem({
  missing: `is missing; it must be one of ${listed(PLUGIN_KINDS, 'or')}`,
  expected: `one of ${listed(PLUGIN_KINDS, 'or')}`,
})

export const manifestSchema = z.discriminatedUnion(
  'kind',
  [
    kindSchema('hypha', { capabilities: capabilitiesField.default(() => []) }),
    kindSchema('rhiza', {}),
    kindSchema('enzyme', { commands: commandsField }),
    kindSchema('inhibitor', { enforcing: flagField.default(false) }),
  ],
  {
    // The union reports both a document that is not a mapping and a kind that matches no option.
    error: (issue) => {
      const input: unknown = issue.input
      if (typeof input !== 'object' || input === null || Array.isArray(input)) {
        return `a manifest must be a mapping of fields (kind, name, septum, …), not ${describe(input)}`
      }
      const kind: unknown = (input as Record<string, unknown>).kind
      if (typeof kind === 'string') {
        return `${quote(kind)} is not a plugin kind; it must be one of ${listed(PLUGIN_KINDS, 'or')}`
      }
      return kindProblem({ ...issue, input: kind })
    },
  },
)
