import { z } from 'zod'
import type { Requirement, RhizaRequirement } from '../contract/manifest.ts'
import { MYCELIUM, MYCELIUM_SCOPES, type MyceliumScope } from '../contract/vocabulary.ts'
import { flagField } from './fields.ts'
import { describe, listed, quote, typeProblem } from './wording.ts'

const REQUIREMENT_KEYS = 'rhiza, scopes and optional, or any_of and optional'

function isMyceliumScope(scope: string): scope is MyceliumScope {
  return (MYCELIUM_SCOPES as readonly string[]).includes(scope)
}

const rhizaField = z
  .string({ error: typeProblem({ missing: 'is missing', expected: 'a rhiza name' }) })
  .min(1, { error: 'must name a rhiza, not be empty' })

const scopesField = z.array(z.string({ error: (issue) => `${describe(issue.input)} is not a scope name` }), {
  error: typeProblem({ missing: 'is missing', expected: 'a list of scope names' }),
})

/** Scopes belong to the mycelium alone, and only the ones it actually mounts. */
function vetScopes(rhiza: string, scopes: readonly string[], ctx: z.RefinementCtx): void {
  if (rhiza !== MYCELIUM) {
    ctx.addIssue({
      code: 'custom',
      path: ['scopes'],
      message: `only the mycelium has a scope model, so the ${quote(rhiza)} requirement cannot set scopes`,
    })
    return
  }
  const unknown = scopes.findIndex((scope) => !isMyceliumScope(scope))
  if (unknown === -1) return
  ctx.addIssue({
    code: 'custom',
    path: ['scopes', unknown],
    message: `${quote(scopes[unknown])} is not a mycelium scope; known scopes are ${listed(MYCELIUM_SCOPES, 'and')}`,
  })
}

function rhizaRequirement(entry: {
  rhiza: string
  scopes?: readonly string[] | undefined
  optional?: boolean | undefined
}): RhizaRequirement {
  return {
    rhiza: entry.rhiza,
    ...(entry.scopes !== undefined && { scopes: entry.scopes.filter(isMyceliumScope) }),
    ...(entry.optional !== undefined && { optional: entry.optional }),
  }
}

const alternative = z
  .strictObject(
    { rhiza: rhizaField, scopes: scopesField.optional(), optional: flagField.optional() },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `is not a field of an any_of alternative; an alternative carries rhiza, scopes and optional`
          : `must be a mapping with a rhiza, not ${describe(issue.input)}`,
    },
  )
  .superRefine((entry, ctx) => {
    if (entry.scopes !== undefined) vetScopes(entry.rhiza, entry.scopes, ctx)
  })
  .transform(rhizaRequirement)

/**
 * One schema for both forms, told apart by which key is present, so a faulty requirement is
 * reported against the form it was written in rather than as a failed union of both.
 */
export const requirementSchema = z
  .strictObject(
    {
      rhiza: rhizaField.optional(),
      any_of: z
        .array(alternative, {
          error: typeProblem({ missing: 'is missing', expected: 'a list of alternatives' }),
        })
        .min(2, { error: 'must list at least two alternatives; a single rhiza needs no any_of' })
        .optional(),
      scopes: scopesField.optional(),
      optional: flagField.optional(),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `is not a requirement field; a requirement carries ${REQUIREMENT_KEYS}`
          : `must be a mapping with rhiza or any_of, not ${describe(issue.input)}`,
    },
  )
  .superRefine((entry, ctx) => {
    if (entry.rhiza !== undefined && entry.any_of !== undefined) {
      ctx.addIssue({ code: 'custom', message: 'a requirement names either one rhiza or any_of, not both' })
    } else if (entry.rhiza === undefined && entry.any_of === undefined) {
      ctx.addIssue({ code: 'custom', message: 'a requirement names a rhiza or lists any_of alternatives' })
    } else if (entry.any_of !== undefined && entry.scopes !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['scopes'],
        message: 'scopes belong on the alternative inside any_of that they apply to, not beside any_of',
      })
    } else if (entry.rhiza !== undefined && entry.scopes !== undefined) {
      vetScopes(entry.rhiza, entry.scopes, ctx)
    }
  })
  .transform((entry): Requirement => {
    const { rhiza, any_of, optional } = entry
    if (rhiza !== undefined) return rhizaRequirement({ ...entry, rhiza })
    // The check above refuses a requirement with neither, so any_of is present here.
    return { any_of: any_of ?? [], ...(optional !== undefined && { optional }) }
  })
