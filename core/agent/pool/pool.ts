import { shippedEntry } from '../../boot/shipped.ts'
import { type SandboxFailure, SandboxFailureError } from '../failure.ts'
import type { Forage } from '../forage.ts'
import type { HostAnswer } from '../guest.ts'
import { Aborted, type SandboxLimits } from '../sandbox.ts'
import {
  type FromWorker,
  INITIAL_BYTES,
  isFromWorker,
  type RunOutcome,
  type ToWorker,
  type WorkerData,
} from './protocol.ts'

/** One program for a worker: what it may call, and when it must be over. */
export interface PoolRun {
  readonly program: string
  readonly paths: readonly string[]
  readonly catalog: Forage
  /** Runs one host call on the bot's thread; the worker only ever sees its answer. */
  readonly call: (path: string, input: unknown) => Promise<HostAnswer>
  readonly limits: SandboxLimits
  /** Aborted at the deadline or by the caller. */
  readonly signal: AbortSignal
  /** Epoch ms: the pool stops the run then even if nobody aborts it. */
  readonly deadlineAt: number
  /** How long a stopped guest has to settle before its worker is ended. */
  readonly graceMs: number
}

/** A started program: its answer, when its backing work is over, and how a stop was taken. */
export interface RunningSandbox {
  /** The result as JSON text; rejects with a SandboxFailureError, or `Aborted` once stopped. */
  readonly result: Promise<string>
  /** The worker is free or gone and every host call it started has settled. */
  readonly settled: Promise<void>
  /** True once the worker settled by itself; false when it ignored a stop and had to be ended. */
  readonly acknowledged: Promise<boolean>
}

export interface SandboxPoolOptions {
  /** Workers kept between runs: the admission's capacity. More run only while more are admitted. */
  readonly size: number
  /** Each worker's memory ceiling (its WebAssembly memory's maximum), 64 MiB unless told. */
  readonly memoryBytes?: number
  /** The worker's module; tests put a misbehaving one here. */
  readonly workerUrl?: URL
}

interface Slot {
  readonly worker: Worker
  /** The catalogue version the worker holds, so it is sent once per graph. */
  catalog: number
  active: ActiveRun | undefined
  ended: boolean
}

interface ActiveRun {
  readonly runId: number
  handle(message: FromWorker): void
  lost(failure: SandboxFailure, evidence: unknown): void
}

const WORKER_URL = shippedEntry('core/agent/pool/worker.ts')
export const DEFAULT_WORKER_MEMORY_BYTES = 64 * 1024 * 1024
/** A worker whose memory grew past this is ended after its run: WebAssembly memory never shrinks. */
const RETIRE_BYTES = 2 * INITIAL_BYTES

/**
 * QuickJS sandboxes in Bun Workers, one program per worker at a time: a guest that never yields
 * costs its worker only. A worker that does not settle within the grace after a stop is ended and
 * replaced; the bot's thread keeps every deadline.
 */
export class SandboxPool {
  readonly size: number
  readonly #url: URL
  readonly #data: WorkerData
  readonly #idle: Slot[] = []
  readonly #all = new Set<Slot>()
  #runIds = 0
  #closed = false

  constructor(options: SandboxPoolOptions) {
    if (!Number.isSafeInteger(options.size) || options.size < 1) {
      throw new RangeError(`a sandbox pool needs a positive size, not ${String(options.size)}`)
    }
    this.size = options.size
    this.#url = options.workerUrl ?? WORKER_URL
    this.#data = { memoryBytes: options.memoryBytes ?? DEFAULT_WORKER_MEMORY_BYTES }
  }

  /** Workers alive now, busy or idle. */
  get workers(): number {
    return this.#all.size
  }

  /** Starts a program on an idle worker, or a new one: the caller's admission bounds how many run. */
  start(run: PoolRun): RunningSandbox {
    if (this.#closed) throw new SandboxFailureError({ kind: 'TransportLost' }, 'the sandbox pool is closed')
    return this.#begin(this.#idle.pop() ?? this.#spawn(), run)
  }

  async close(): Promise<void> {
    this.#closed = true
    for (const slot of [...this.#all]) this.#end(slot, { kind: 'TransportLost' }, 'the sandbox pool closed')
  }

  #spawn(): Slot {
    const worker = new Worker(this.#url, { smol: true, workerData: this.#data } as WorkerOptions)
    // An idle worker never holds the process open.
    worker.unref()
    const slot: Slot = { worker, catalog: -1, active: undefined, ended: false }
    this.#all.add(slot)
    worker.addEventListener('message', (event: MessageEvent) => {
      const message: unknown = event.data
      const active = slot.active
      if (!isFromWorker(message) || active === undefined || message.runId !== active.runId) {
        this.#end(slot, { kind: 'BadResponse' }, { message })
      } else active.handle(message)
    })
    worker.addEventListener('error', (event: ErrorEvent) =>
      this.#end(slot, { kind: 'TransportLost' }, { error: event.message }),
    )
    worker.addEventListener('close', () => this.#end(slot, { kind: 'TransportLost' }, 'the worker exited'))
    return slot
  }

  /** Ends a worker (its run, if any, fails as said) and puts a fresh one in its place. */
  #end(slot: Slot, failure: SandboxFailure, evidence: unknown): void {
    if (slot.ended) return
    slot.ended = true
    this.#all.delete(slot)
    const at = this.#idle.indexOf(slot)
    if (at >= 0) this.#idle.splice(at, 1)
    slot.worker.terminate()
    slot.active?.lost(failure, evidence)
    if (!this.#closed && this.#all.size < this.size) this.#idle.push(this.#spawn())
  }

  /** A worker back from a run waits for the next, unless the pool keeps enough or it grew. */
  #free(slot: Slot, heapBytes: number): void {
    if (slot.ended) return
    if (!this.#closed && this.#idle.length < this.size && heapBytes <= RETIRE_BYTES) this.#idle.push(slot)
    else {
      slot.ended = true
      this.#all.delete(slot)
      slot.worker.terminate()
    }
  }

  #begin(slot: Slot, run: PoolRun): RunningSandbox {
    const runId = ++this.#runIds
    const stopBuffer = new SharedArrayBuffer(4)
    const deferred = {
      result: Promise.withResolvers<string>(),
      settled: Promise.withResolvers<void>(),
      acknowledged: Promise.withResolvers<boolean>(),
    }
    // The result is often awaited only after a stop: an early rejection is not unhandled.
    deferred.result.promise.catch(() => undefined)
    let hostCalls = 0
    let workerDone = false
    let graceTimer: ReturnType<typeof setTimeout> | undefined
    const post = (message: ToWorker) => {
      if (!slot.ended && slot.active === active) slot.worker.postMessage(message)
    }
    const finish = () => {
      if (!workerDone || hostCalls > 0) return
      clearTimeout(graceTimer)
      clearTimeout(watchdog)
      run.signal.removeEventListener('abort', stop)
      deferred.settled.resolve()
    }
    const stop = () => {
      if (workerDone || graceTimer !== undefined) return
      Atomics.store(new Int32Array(stopBuffer), 0, 1)
      post({ kind: 'stop', runId })
      deferred.result.reject(new Aborted())
      graceTimer = setTimeout(
        () => this.#end(slot, { kind: 'TransportLost' }, 'the worker ignored its stop'),
        run.graceMs,
      )
    }
    const active: ActiveRun = {
      runId,
      handle: (message) => {
        if (message.kind === 'call') {
          // A worker past its own bound is not the worker we wrote: it is ended, not obeyed.
          if (++hostCalls > run.limits.hostCallsInFlight) {
            this.#end(slot, { kind: 'BadResponse' }, 'the worker passed its host-call bound')
            return
          }
          // A call that arrives after the stop is answered without running: the program is over.
          if (graceTimer !== undefined) {
            answered(message.seq, { ok: false, name: 'Aborted', message: 'the program was stopped' })
            return
          }
          run.call(message.path, message.input).then(
            (answer) => answered(message.seq, answer),
            () => answered(message.seq, { ok: false, name: 'Error', message: 'the host call failed' }),
          )
        } else if (message.kind === 'result') settleResult(deferred.result, message.outcome)
        else {
          workerDone = true
          slot.active = undefined
          this.#free(slot, message.heapBytes)
          deferred.acknowledged.resolve(true)
          finish()
        }
      },
      lost: (failure, evidence) => {
        workerDone = true
        slot.active = undefined
        deferred.result.reject(new SandboxFailureError(failure, evidence))
        deferred.acknowledged.resolve(false)
        finish()
      },
    }
    const answered = (seq: number, answer: HostAnswer) => {
      hostCalls--
      post({ kind: 'answer', runId, seq, answer })
      finish()
    }
    slot.active = active
    const watchdog = setTimeout(stop, Math.max(0, run.deadlineAt - Date.now()))
    const sendCatalog = slot.catalog !== run.catalog.version
    slot.catalog = run.catalog.version
    post({
      kind: 'run',
      runId,
      program: run.program,
      paths: run.paths,
      catalog: {
        version: run.catalog.version,
        ...(sendCatalog ? { entries: run.catalog.entries } : {}),
      },
      limits: run.limits,
      deadlineAt: run.deadlineAt,
      stop: stopBuffer,
    })
    if (run.signal.aborted) stop()
    else run.signal.addEventListener('abort', stop, { once: true })
    return {
      result: deferred.result.promise,
      settled: deferred.settled.promise,
      acknowledged: deferred.acknowledged.promise,
    }
  }
}

function settleResult(result: ReturnType<typeof Promise.withResolvers<string>>, outcome: RunOutcome): void {
  if (outcome.ok) result.resolve(outcome.text)
  else if ('aborted' in outcome) result.reject(new Aborted())
  else result.reject(new SandboxFailureError(outcome.failure, outcome.evidence, outcome.fault))
}
