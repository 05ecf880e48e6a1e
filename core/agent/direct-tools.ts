import type { SporeOperation } from '@mycelo/septum'
import type { AccessOptions } from './access.ts'
import type { CallWrapper } from './execution.ts'
import { type Invocation, invokeLeaf } from './invoke.ts'
import type { Leaf } from './namespace.ts'
import { defineOperation, type InvocationContext, isOperation, type Operation } from './operation.ts'

/** A direct tool as a lease hands it out: called without a sandbox, behind the same checks. */
export type DirectTool = (input: unknown, context?: Partial<InvocationContext>) => Promise<Invocation>

/**
 * Labelled direct tools, each its own authority under its name: labels parsed at definition (a bad
 * one is a definition error when the runtime opens), the grant by that name.
 */
export function directToolLeaves(
  tools: Readonly<Record<string, Operation | SporeOperation>> | undefined,
): ReadonlyMap<string, Leaf> {
  const leaves = new Map<string, Leaf>()
  for (const [name, tool] of Object.entries(tools ?? {})) {
    const operation = isOperation(tool) ? tool : defineOperation(tool, `tool "${name}"`)
    leaves.set(name, { module: name, grantKey: name, relative: name, path: name, operation })
  }
  return leaves
}

export interface DirectToolsOptions {
  readonly access: AccessOptions
  readonly around: CallWrapper
  readonly requireIdentity: boolean
}

/** The tools as callables: grant, identity, person, input, then the operation, as inside execute. */
export function directTools(
  leaves: ReadonlyMap<string, Leaf>,
  options: DirectToolsOptions,
): Readonly<Record<string, DirectTool>> {
  const tools: Record<string, DirectTool> = {}
  for (const [name, leaf] of leaves) {
    tools[name] = (input, context = {}) => {
      const frozen = Object.freeze({ ...context, signal: context.signal ?? new AbortController().signal })
      const { access, requireIdentity } = options
      return options.around(() => invokeLeaf({ leaf, input, context: frozen, access, requireIdentity }))
    }
  }
  return Object.freeze(tools)
}
