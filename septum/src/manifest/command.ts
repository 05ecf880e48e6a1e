import { z } from 'zod'
import type { ArgDeclaration, CommandDeclaration } from '../contract/manifest.ts'
import { capabilitiesField, catalogueKeyField, firstDuplicate, flagField, nameField } from './fields.ts'
import { describe, quote, typeProblem } from './wording.ts'

const argSchema = z.strictObject(
  {
    name: nameField('is missing; every arg has a name'),
    description: catalogueKeyField('is missing; every arg has a description, a catalogue key'),
    required: flagField.default(false),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? 'is not an arg field; an arg carries name, description and required'
        : `must be a mapping with a name and a description, not ${describe(issue.input)}`,
  },
)

const argsField = z
  .array(argSchema, { error: typeProblem({ missing: 'is missing', expected: 'a list of args' }) })
  .superRefine((args, ctx) => {
    const twice = firstDuplicate(args.map((arg) => arg.name))
    if (twice === -1) return
    ctx.addIssue({
      code: 'custom',
      path: [twice, 'name'],
      message: `${quote(args[twice]?.name)} is declared twice; arg names are unique within a command`,
    })
  })

function commandDeclaration(entry: {
  name: string
  description: string
  respond?: string | undefined
  code?: string | undefined
  args?: ArgDeclaration[] | undefined
  capabilities?: CommandDeclaration['capabilities'] | undefined
}): CommandDeclaration {
  const { name, description, respond, code, args, capabilities } = entry
  const common = { name, description, ...(capabilities !== undefined && { capabilities }) }
  if (code !== undefined) return { ...common, code, ...(args !== undefined && { args }) }
  // The check before this refuses a command with neither, so respond is present here.
  return { ...common, respond: respond ?? '' }
}

export const commandSchema = z
  .strictObject(
    {
      name: nameField('is missing; every command has a name'),
      description: catalogueKeyField('is missing; every command has a description, a catalogue key'),
      respond: z
        .string({ error: typeProblem({ missing: 'is missing', expected: 'a catalogue key' }) })
        .min(1, { error: 'must not be empty: it is the catalogue key the command answers with' })
        .optional(),
      code: z
        .string({ error: typeProblem({ missing: 'is missing', expected: 'a handler name' }) })
        .min(1, { error: 'must not be empty: it names the handler the module exports' })
        .optional(),
      args: argsField.optional(),
      capabilities: capabilitiesField.optional(),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? 'is not a command field; a command carries name, description, respond or code, args and capabilities'
          : `must be a mapping with a name, a description and respond or code, not ${describe(issue.input)}`,
    },
  )
  .superRefine((entry, ctx) => {
    if (entry.respond !== undefined && entry.code !== undefined) {
      ctx.addIssue({ code: 'custom', message: 'a command carries exactly one of respond or code, not both' })
    } else if (entry.respond === undefined && entry.code === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'a command carries exactly one of respond or code, and this one has neither',
      })
    } else if (entry.respond !== undefined && entry.args !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['args'],
        message:
          'only a code command takes args: respond answers with a catalogue key and has no way to interpolate an arg',
      })
    }
  })
  .transform(commandDeclaration)

export const commandsField = z
  .array(commandSchema, {
    error: typeProblem({
      missing: 'is missing; an enzyme declares at least one command',
      expected: 'a list of commands',
    }),
  })
  .min(1, { error: 'is empty; an enzyme declares at least one command' })
  .superRefine((commands, ctx) => {
    const twice = firstDuplicate(commands.map((command) => command.name))
    if (twice === -1) return
    ctx.addIssue({
      code: 'custom',
      path: [twice, 'name'],
      message: `${quote(commands[twice]?.name)} is declared twice; command names are unique within a manifest`,
    })
  })
