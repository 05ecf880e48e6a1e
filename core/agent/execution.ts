import type { AccessOptions } from './access.ts'
import type { HostAnswer } from './guest.ts'
import { type Invocation, invokeLeaf } from './invoke.ts'
import type { Lease } from './leases.ts'
import type { Leaf } from './namespace.ts'
import type { InvocationContext } from './operation.ts'

/** Runs one operation call in whatever the host wraps calls in (the bot: as the person acted for). */
export type CallWrapper = <T>(work: () => Promise<T>) => Promise<T>

/** A host-side failure a call met: the evidence for the operator, kept out of the guest. */
export interface CapabilityFault {
  readonly module: string
  readonly operation: string
  readonly evidence: unknown
}

export interface BindingOptions {
  readonly lease: Lease
  readonly access: AccessOptions
  readonly executionId: string
  readonly toolCallId: string | undefined
  readonly signal: AbortSignal
  readonly around: CallWrapper
  readonly requireIdentity: boolean
  /** Where each host-side failure is recorded. */
  readonly faults: CapabilityFault[]
}

/** What the bot's thread serves a program: the callable paths and the calls themselves. */
export interface HostBindings {
  readonly paths: readonly string[]
  call(path: string, input: unknown): Promise<HostAnswer>
}

/**
 * The guest's bindings for one execute attempt. The ordinal is taken synchronously when the binding
 * is called, before any await, so calls started together still get distinct positions; forage (served
 * in the sandbox's worker) takes none. A new attempt builds new bindings, so its counter starts at zero again.
 */
export function executionBindings(options: BindingOptions): HostBindings {
  const { lease } = options
  let ordinal = 0
  return {
    paths: [...lease.leaves.keys()],
    call(path, input) {
      const operationOrdinal = ordinal++
      const leaf = lease.leaves.get(path)
      if (leaf === undefined) {
        return Promise.resolve({ ok: false, name: 'NotFound', message: `no operation at "${path}"` })
      }
      const context: InvocationContext = Object.freeze({
        executionId: options.executionId,
        ...(options.toolCallId === undefined ? {} : { toolCallId: options.toolCallId }),
        operationOrdinal,
        signal: options.signal,
      })
      return call(options, leaf, input, context)
    },
  }
}

async function call(options: BindingOptions, leaf: Leaf, input: unknown, context: InvocationContext) {
  const { access, around, requireIdentity } = options
  const invocation = await around(() => invokeLeaf({ leaf, input, context, access, requireIdentity }))
  return answerOf(invocation, leaf, options.faults)
}

/** What the guest sees of a call: a value (a refusal is one), or an error it may catch. */
export function answerOf(invocation: Invocation, leaf: Leaf, faults: CapabilityFault[]): HostAnswer {
  switch (invocation.kind) {
    case 'value':
      if (isJson(invocation.value)) return { ok: true, value: invocation.value }
      return failed(leaf, faults, { output: 'not JSON' })
    case 'refused':
      return { ok: true, value: invocation.refusal }
    case 'invalid-input':
      return { ok: false, name: 'InvalidInput', message: invocation.issues.join('; ') }
    case 'failed':
      return failed(leaf, faults, invocation.evidence)
  }
}

function failed(leaf: Leaf, faults: CapabilityFault[], evidence: unknown): HostAnswer {
  const fault = faults.push({ module: leaf.module, operation: leaf.relative, evidence }) - 1
  return { ok: false, name: 'CapabilityFailed', message: `${leaf.path} failed on the host side`, fault }
}

function isJson(value: unknown): boolean {
  try {
    return JSON.stringify(value) !== undefined || value === undefined
  } catch {
    return false
  }
}
