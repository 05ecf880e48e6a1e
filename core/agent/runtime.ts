import { randomUUID } from 'node:crypto'
import { availableParallelism } from 'node:os'
import type { Logger, SporeOperation } from '@mycelo/septum'
import type { AccessOptions } from './access.ts'
import {
  normalizeSandboxAdmissionPolicy,
  type Permit,
  SandboxAdmission,
  type SandboxAdmissionOptions,
  type SandboxAdmissionPolicy,
} from './admission.ts'
import { type DirectTool, directToolLeaves, directTools } from './direct-tools.ts'
import { type CallWrapper, type CapabilityFault, executionBindings } from './execution.ts'
import {
  type FailureWords,
  failureOf,
  type SandboxFailure,
  SandboxFailureError,
  type SandboxFailureReport,
  sandboxFailureMessage,
} from './failure.ts'
import { type Invocation, invokeLeaf } from './invoke.ts'
import { type CapabilitySource, LeaseKeeper } from './leases.ts'
import type { AgentModule } from './namespace.ts'
import type { InvocationContext, Operation } from './operation.ts'
import { type RunningSandbox, SandboxPool } from './pool/pool.ts'
import { Aborted, DEFAULT_LIMITS, type SandboxLimits } from './sandbox.ts'

export interface ExecutionOptions extends SandboxAdmissionOptions {
  /** The whole execute's budget, admission wait included: queueing never restarts it. */
  readonly timeoutMs?: number
  /** How long a stopped run may take to acknowledge, before the result says it did not. */
  readonly cancelGraceMs?: number
  readonly limits?: Partial<SandboxLimits>
  /** Refuse a write called without an execution identity (a direct call that brings none). */
  readonly requireIdentity?: boolean
  /** A pool shared with other runtimes (the MCP endpoint's, one per call); its own policy then applies. */
  readonly admission?: SandboxAdmission
  /** The sandbox workers, shared like the admission; the process's own pool without it. */
  readonly pool?: SandboxPool
}

export interface AgentRuntimeOptions {
  readonly modules?: readonly AgentModule[]
  readonly sources?: readonly CapabilitySource[]
  readonly access?: AccessOptions
  readonly execution?: ExecutionOptions
  /** The operator's evidence for every failed execute; the model only gets the message. */
  readonly onSandboxFailure?: (report: SandboxFailureReport) => void
  readonly logger?: Logger
  /** Wraps every operation call; the bot runs it as the person the agent acts for. */
  readonly around?: CallWrapper
  /** Words the model's failure message in the reader's language; English without it. */
  readonly failureWords?: FailureWords
  /** Labelled direct tools, called without a sandbox: they come back on each lease's `tools`. */
  readonly tools?: Readonly<Record<string, Operation | SporeOperation>>
}

/** What a lease hands a host: the direct tools over one coherent capability graph, until released. */
export interface AgentLease {
  readonly tools: Readonly<Record<string, DirectTool>>
  release(): Promise<void>
}

export interface ExecuteRequest {
  readonly program: string
  readonly toolCallId?: string
  readonly signal?: AbortSignal
}

export type ExecuteResult =
  | { readonly ok: true; readonly executionId: string; readonly value: unknown }
  | {
      readonly ok: false
      readonly executionId: string
      readonly failure: SandboxFailure
      /** The bounded projection for the model. */
      readonly message: string
      readonly reference: string
      /** False when the sandbox had not settled within the grace: do not report that work as stopped. */
      readonly acknowledged: boolean
    }

/** The entry points an adapter (MCP) needs: execute, a direct call, the policy, close. */
export interface AgentRuntime {
  readonly policy: SandboxAdmissionPolicy
  readonly admission: SandboxAdmission
  execute(request: ExecuteRequest): Promise<ExecuteResult>
  /** A known operation without a model; the caller supplies its own context. */
  invoke(path: string, input: unknown, context?: Partial<InvocationContext>): Promise<Invocation>
  /** A lease on the current graph, with the direct tools behind the same checks as execute's calls. */
  lease(): Promise<AgentLease>
  close(): Promise<void>
}

let processPool: SandboxPool | undefined

/** One pool for the runtimes that bring none: a worker costs its start-up once, not once per runtime. */
function sharedPool(): SandboxPool {
  processPool ??= new SandboxPool({
    size: normalizeSandboxAdmissionPolicy({}, availableParallelism()).capacity,
  })
  return processPool
}

const DEFAULT_TIMEOUT_MS = 30_000
const DEFAULT_CANCEL_GRACE_MS = 1_000

/** Opens a runtime: validates and captures the admission policy and the graph's definitions. */
export function makeAgentRuntime(options: AgentRuntimeOptions): AgentRuntime {
  const execution = options.execution ?? {}
  const admission =
    execution.admission ??
    new SandboxAdmission(normalizeSandboxAdmissionPolicy(execution, availableParallelism()))
  const policy = admission.policy
  const pool = execution.pool ?? sharedPool()
  const keeper = new LeaseKeeper(options.modules ?? [], options.sources ?? [])
  const limits: SandboxLimits = { ...DEFAULT_LIMITS, ...execution.limits }
  const access = options.access ?? {}
  const around: CallWrapper = options.around ?? ((work) => work())
  const timeoutMs = execution.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const graceMs = execution.cancelGraceMs ?? DEFAULT_CANCEL_GRACE_MS
  const requireIdentity = execution.requireIdentity ?? false
  // Parsed now: a badly labelled tool is a definition error when the runtime opens.
  const toolLeaves = directToolLeaves(options.tools)

  const report = (executionId: string, failure: SandboxFailure, evidence: unknown, acknowledged = true) => {
    const reference = `agent-${randomUUID().slice(0, 8)}`
    try {
      options.onSandboxFailure?.({ reference, executionId, failure, evidence })
    } catch {
      // The evidence hook is the host's; its fault does not change the answer.
    }
    // Contention is not a health alert: it is logged, not warned about.
    const level = failure.kind === 'SandboxBusy' ? 'info' : 'warn'
    options.logger?.[level]('agent execute failed', { reference, executionId, kind: failure.kind })
    const message = sandboxFailureMessage(failure, reference, options.failureWords)
    return { ok: false as const, executionId, failure, message, reference, acknowledged }
  }

  async function execute(request: ExecuteRequest): Promise<ExecuteResult> {
    const executionId = randomUUID()
    const deadlineAt = Date.now() + timeoutMs
    const caller = request.signal ?? new AbortController().signal
    let permit: Permit
    try {
      permit = await admission.acquire({ signal: caller, deadlineAt, timeoutMs })
    } catch (error) {
      return report(executionId, failureOf(error), error)
    }
    const stop = new AbortController()
    const onCaller = () => stop.abort('caller')
    caller.addEventListener('abort', onCaller, { once: true })
    const timer = setTimeout(() => stop.abort('deadline'), Math.max(0, deadlineAt - Date.now()))
    const cleanUp = () => {
      clearTimeout(timer)
      caller.removeEventListener('abort', onCaller)
    }
    let lease: Awaited<ReturnType<LeaseKeeper['lease']>>
    try {
      lease = await keeper.lease()
    } catch (error) {
      cleanUp()
      permit.release()
      const failure: SandboxFailure = { kind: 'CapabilityFailed', module: 'sources', operation: 'acquire' }
      return report(executionId, failure, error)
    }
    const faults: CapabilityFault[] = []
    const bindings = executionBindings({
      lease,
      access,
      executionId,
      toolCallId: request.toolCallId,
      signal: stop.signal,
      around,
      requireIdentity,
      faults,
    })
    let running: RunningSandbox
    try {
      running = pool.start({
        program: request.program,
        paths: bindings.paths,
        call: bindings.call,
        catalog: lease.forage,
        limits,
        signal: stop.signal,
        deadlineAt,
        graceMs,
      })
    } catch (error) {
      cleanUp()
      permit.release()
      await lease.release()
      // A closed pool says so by type; anything else it throws is foreign, so Unknown.
      return report(executionId, failureOf(error), error)
    }
    // The permit and the lease are held until the backing work has really settled, however it ends.
    const released = running.settled.then(async () => {
      permit.release()
      await lease.release()
    })
    // A finished program's worker settles a moment after its answer: let go of both first, when it
    // does within the grace (a host call the program left running may not).
    const settledOrGrace = () => within(released, graceMs)
    try {
      const text = await running.result
      await settledOrGrace()
      return { ok: true, executionId, value: JSON.parse(text) }
    } catch (error) {
      if (!(error instanceof Aborted)) {
        await settledOrGrace()
        return report(executionId, classify(error, faults), evidenceOf(error, faults))
      }
      // A guest stopped by its own deadline inside synchronous code has not aborted the signal yet.
      if (!stop.signal.aborted) stop.abort('deadline')
      const failure: SandboxFailure =
        stop.signal.reason === 'caller'
          ? { kind: 'Cancelled', by: 'caller' }
          : { kind: 'DeadlineExceeded', timeoutMs }
      const acknowledged = await running.acknowledged
      return report(executionId, failure, { faults }, acknowledged)
    } finally {
      cleanUp()
    }
  }

  async function invoke(path: string, input: unknown, context: Partial<InvocationContext> = {}) {
    const lease = await keeper.lease()
    try {
      const leaf = lease.leaves.get(path)
      if (leaf === undefined) throw new RangeError(`no operation at "${path}"`)
      const frozen = Object.freeze({ ...context, signal: context.signal ?? new AbortController().signal })
      return await around(() => invokeLeaf({ leaf, input, context: frozen, access, requireIdentity }))
    } finally {
      await lease.release()
    }
  }

  async function lease(): Promise<AgentLease> {
    const held = await keeper.lease()
    let released = false
    // A tool called after its lease is let go has no graph to stand on: refused, never run.
    const leased: CallWrapper = (work) =>
      released ? Promise.reject(new Error('this lease is released')) : around(work)
    const tools = directTools(toolLeaves, { access, around: leased, requireIdentity })
    const release = async () => {
      released = true
      await held.release()
    }
    return { tools, release }
  }

  return { policy, admission, execute, invoke, lease, close: () => keeper.close() }
}

/**
 * A guest that let a host-side failure escape (the very error the host raised, however rethrown)
 * reports it as that capability's failure. The error's identity decides, never its name or text.
 */
function classify(error: unknown, faults: readonly CapabilityFault[]): SandboxFailure {
  const failure = failureOf(error)
  const index = error instanceof SandboxFailureError ? error.fault : undefined
  const fault = index === undefined ? undefined : faults[index]
  if (failure.kind === 'GuestException' && fault !== undefined) {
    return { kind: 'CapabilityFailed', module: fault.module, operation: fault.operation }
  }
  return failure
}

function evidenceOf(error: unknown, faults: readonly CapabilityFault[]): unknown {
  return { error: error instanceof SandboxFailureError ? error.evidence : error, faults }
}

function within(settled: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms)
    void settled.then(() => {
      clearTimeout(timer)
      resolve(true)
    })
  })
}
