import { DeadlineExceeded, type Deadlines } from '../supervision/deadline.ts'
import { Bridge, type WireMessage } from './bridge.ts'
import type { CallDeadline } from './pending-calls.ts'

/**
 * A host's worker, from `entry` (the host runtime, see runtime-build.ts): it loads the runtime on a
 * thread of its own and then answers the init message, which it queues until it listens.
 */
export function startHostWorker(entry: string): Worker {
  return new Worker(entry, { smol: true })
}
/**
 * How far past a member's deadline the watchdog waits: the caller's own deadline (which aborts the
 * call's signal, words the failure, answers the person) passes first; the watchdog then decides
 * whether the host is still answering.
 */
const WATCHDOG_SLACK_MS = 100
/** How long a host waits blocked on the core's answer to its own synchronous call. */
const HOST_SYNC_MS = 5_000

/** Why a host ended, as an operator reads it after "restarted". */
export class HostEnded extends Error {
  override readonly name = 'HostEnded'
}

export interface HostOptions {
  /** The spore it runs, for log lines and reasons. */
  readonly spore: string
  readonly deadlines: Deadlines
  /**
   * How long a synchronous call (a storage transaction's work, a migration) may block the core's
   * thread: small, since nothing else runs meanwhile; a host that has not answered by then is ended.
   */
  readonly syncMs: number
  /** How long a host that missed a deadline has to show it is still answering before it is ended. */
  readonly graceMs: number
  /** Told once when the host ends by itself or is ended for a fault; never for end() by the core. */
  readonly onDown: (host: Host, reason: string) => void
  /** Its worker (see startHostWorker), just started. */
  readonly worker: Worker
}

/** What the worker offers the core before any spore is loaded. */
type HostRoot = Record<string, ((...args: unknown[]) => Promise<unknown>) | undefined>

/** The members the core calls on a spore, by the deadline each is bounded by. */
const MEMBER_DEADLINES: Record<string, keyof Deadlines> = {
  connect: 'connect',
  listen: 'listen',
  start: 'start',
  stop: 'stop',
  send: 'send',
  health: 'health',
  inspect: 'inspect',
  listGroupMembers: 'groupMembers',
  load: 'create',
  create: 'create',
}

/**
 * One spore's worker, seen from the core. Every call across keeps its deadline here, on the core's
 * side: a call not answered in time fails as a deadline does, and unless the host then answers a
 * short ping it is terminated (code that never yields cannot answer) and reported down.
 */
export class Host {
  readonly #options: HostOptions
  readonly #worker: Worker
  readonly #bridge: Bridge
  #root: HostRoot | undefined
  readonly #ready: Promise<void>
  #down: string | undefined
  #fault: string | undefined
  #ended = false

  constructor(options: HostOptions) {
    this.#options = options
    this.#worker = options.worker
    const flags = new Int32Array(new SharedArrayBuffer(8))
    const { port1, port2 } = new MessageChannel()
    this.#bridge = new Bridge({
      post: (message) => this.#worker.postMessage(message),
      port: port1,
      flags,
      side: 0,
      syncMs: options.syncMs,
      onSyncExpired: (ms) => this.#fail(`did not answer a synchronous call within ${seconds(ms)}`),
      deadlineOf: (path) => this.#deadlineOf(path),
    })
    this.#ready = new Promise((resolve) => {
      this.#worker.addEventListener('close', () => resolve())
      this.#worker.addEventListener('message', (event: MessageEvent) => {
        const data = event.data as
          | WireMessage
          | string
          | { t: 'ready'; root: unknown }
          | { t: 'fault'; text: string }
        if (typeof data === 'string') this.#bridge.receive(data)
        else if (data.t === 'ready') {
          this.#root = this.#bridge.in(data.root) as HostRoot
          resolve()
        } else if (data.t === 'fault') this.#fault = data.text
        else this.#bridge.receive(data)
      })
    })
    this.#worker.addEventListener('close', (event: Event) => {
      const code = (event as Event & { code?: number }).code
      this.#fail(this.#fault ?? `its worker exited (code ${code ?? 'unknown'})`)
    })
    // The host may wait longer on the core than the core on it: a blocked host stops itself only.
    this.#worker.postMessage({ t: 'init', port: port2, flags, syncMs: HOST_SYNC_MS }, [port2])
  }

  get spore(): string {
    return this.#options.spore
  }

  /** Why it is down, or undefined while it runs. */
  get down(): string | undefined {
    return this.#down
  }

  /** Handles the core holds for the spore (a growing count is a leak). */
  get handles(): number {
    return this.#bridge.exported
  }

  /** Calls one of the worker's root members (load, create, heap). */
  async root(member: 'load' | 'create' | 'heap', ...args: unknown[]): Promise<unknown> {
    await this.#ready
    const call = this.#root?.[member]
    if (call === undefined) throw new HostEnded(this.#down ?? 'the host has no root')
    return call(...args)
  }

  /** Marshals a value the host answered with, naming where it sits for its members' deadlines. */
  in(value: unknown, path: readonly string[]): unknown {
    return this.#bridge.in(value, path)
  }

  /** The worker's heap, or undefined when it does not answer within `ms` (it is then ended). */
  async heap(ms: number): Promise<number | undefined> {
    if (this.#down) return undefined
    let timer: ReturnType<typeof setTimeout> | undefined
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), ms)
    })
    const answer = await Promise.race([this.root('heap').catch(() => undefined), late])
    clearTimeout(timer)
    return typeof answer === 'number' ? answer : undefined
  }

  /** Ends the worker for a fault: every call waiting on it fails, and the core is told. */
  kill(reason: string): void {
    this.#fail(reason)
  }

  /** Ends the worker because the core is done with it (a reload swapped it out, the bot stops). */
  end(): void {
    this.#ended = true
    this.#close('the spore was stopped')
  }

  #fail(reason: string): void {
    if (this.#down !== undefined) return
    this.#close(reason)
    if (!this.#ended) this.#options.onDown(this, reason)
  }

  #close(reason: string): void {
    if (this.#down !== undefined) return
    this.#down = reason
    this.#bridge.close(new HostEnded(`spore "${this.#options.spore}" is not running: ${reason}`))
    this.#worker.terminate()
  }

  /** A member's deadline by where it sits: `inspect`, `handlers.add`, `api.search`, a callback. */
  #deadlineOf(path: readonly string[]): CallDeadline | undefined {
    const member = path[0] ?? ''
    // The heap is asked with its own bound (see heap()); asking it is how a miss is confirmed.
    if (member === 'heap') return undefined
    const ms = this.#options.deadlines[MEMBER_DEADLINES[member] ?? 'handler']
    const step = `${path.join('.') || 'callback'}()`
    const waitMs = ms + WATCHDOG_SLACK_MS
    return { ms, waitMs, step, onExpired: (step, ms) => this.#expired(step, ms) }
  }

  /** A call's deadline passed: it fails now; the host is ended unless it shows it still answers. */
  #expired(step: string, ms: number): Error {
    if (!this.#down) {
      void this.heap(this.#options.graceMs).then((answer) => {
        if (answer === undefined) this.#fail(`did not answer within ${seconds(ms)}`)
      })
    }
    return new DeadlineExceeded(step, ms)
  }
}

/** A duration as an operator reads it in a reason. */
export function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`
}
