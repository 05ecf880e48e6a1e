import type { AnyOperationSchema, OperationContext, SporeOperation } from '@mycelo/septum'
import { z } from 'zod'
import { isOperationSchema } from './schema.ts'

/** What an operation does, as its author labels it; the host never edits it. */
export interface ToolPolicy {
  readonly access: 'read' | 'write'
  readonly confirm: boolean
}

/** Exactly `read`/`write` and a boolean confirm; unlabelled is write. Anything else is refused. */
export const ToolPolicySchema = z
  .object({ access: z.enum(['read', 'write']).default('write'), confirm: z.boolean().default(false) })
  .transform((policy): ToolPolicy => Object.freeze(policy))

export type InvocationContext = OperationContext

/** An operation as the runtime holds it: schemas checked, labels parsed. */
export interface Operation<I = unknown, O = unknown> {
  readonly kind: 'operation'
  readonly description: string
  readonly input: AnyOperationSchema<I>
  readonly output: AnyOperationSchema<O>
  readonly policy: ToolPolicy
  readonly run: (input: I, context: InvocationContext) => O | Promise<O>
}

/** A definition that cannot be offered: a bad label, a missing schema, a colliding key. */
export class AgentDefinitionError extends Error {
  override readonly name = 'AgentDefinitionError'
}

/** Checks an author's operation at definition, where a mistake is cheapest to find. */
export function defineOperation<I, O>(spec: SporeOperation<I, O>, where = 'operation'): Operation<I, O> {
  if (typeof spec !== 'object' || spec === null) throw new AgentDefinitionError(`${where} is not an object`)
  const { input, output, run, description } = spec
  if (!isOperationSchema(input)) {
    throw new AgentDefinitionError(
      `${where}: input is neither an Effect Schema nor a Standard Schema with Standard JSON Schema`,
    )
  }
  if (!isOperationSchema(output)) {
    throw new AgentDefinitionError(
      `${where}: output is neither an Effect Schema nor a Standard Schema with Standard JSON Schema`,
    )
  }
  if (typeof run !== 'function') throw new AgentDefinitionError(`${where}: run is not a function`)
  if (description !== undefined && typeof description !== 'string') {
    throw new AgentDefinitionError(`${where}: description is not text`)
  }
  const label = ToolPolicySchema.safeParse({ access: spec.access, confirm: spec.confirm })
  if (!label.success) {
    throw new AgentDefinitionError(`${where}: access must be exactly "read" or "write" and confirm a boolean`)
  }
  return Object.freeze({
    kind: 'operation',
    description: description ?? '',
    input: input as AnyOperationSchema<I>,
    output: output as AnyOperationSchema<O>,
    policy: label.data,
    run: (value: I, context: InvocationContext) => run.call(spec, value, context),
  })
}

export function isOperation(value: unknown): value is Operation {
  return (value as { kind?: unknown } | null)?.kind === 'operation'
}
