import type { Logger } from '@mycelo/septum'
import { DEFAULT_DEADLINES, DeadlineExceeded, type Deadlines } from '../supervision/deadline.ts'
import { Host, seconds, startHostWorker } from './host.ts'
import { DEFAULT_POLICY, type IsolationPolicy, isolationOf } from './policy.ts'
import { hostRuntime } from './runtime-build.ts'

/** What the keeper needs to start a spore again once its host is gone. */
export interface Restarter {
  /**
   * Whether a host that ran `instance` (undefined: it went down before create() answered) is one the
   * bot should start again: the spore's current self, or a spore left dormant by that very fault.
   */
  isCurrent(name: string, instance: unknown): boolean
  /** Marks it unusable at once: an enforcing inhibitor refuses, a command is answered "unavailable". */
  markDown(name: string, reason: string): void
  restart(name: string): Promise<unknown>
}

/** How one isolated spore has fared: what every surface shows beside "worker". */
export interface HostRecord {
  readonly restarts: number
  readonly lastFault?: string
  readonly at?: number
}

export interface KeeperOptions {
  readonly logger: Logger
  readonly deadlines: Deadlines
  readonly policy: IsolationPolicy
  /** How long a host has to answer a ping before it is ended (a miss, the memory watch). */
  readonly answerMs?: number
  /** How often each host's heap is asked. */
  readonly watchMs?: number
  readonly syncMs?: number
}

/** The longest the core's thread waits blocked on a host's synchronous answer (see HostOptions.syncMs). */
export const CORE_SYNC_MS = 500
const RESTART_WINDOW_MS = 60_000
const MAX_BACKOFF_MS = 60_000
const MIB = 1024 * 1024

/**
 * Every host the bot runs, the memory watch over them, and what happens when one goes down: the
 * spore is marked down at once, then restarted (at once the first time, with backoff when it keeps
 * failing), and its record keeps the reason every surface shows.
 */
export class HostKeeper {
  #options: KeeperOptions
  readonly #hosts = new Set<Host>()
  readonly #byInstance = new WeakMap<object, Host>()
  readonly #records = new Map<string, HostRecord>()
  readonly #instances = new WeakMap<Host, object>()
  #restarter: Restarter | undefined
  /** Spores whose host went down before the bot had started: restarted once it has. */
  readonly #waiting = new Set<string>()
  #active = false
  #watch: ReturnType<typeof setInterval> | undefined
  #watching = false
  /** Hosts whose heap was asked and not yet answered, since when. */
  readonly #asked = new Map<Host, number>()
  /** The process's RSS when the first host opened: the bot's own share of the bound. */
  #baseline: number | undefined

  constructor(options: KeeperOptions) {
    this.#options = options
  }

  /** Takes mycelo.yaml's settings as a bot germinates; hosts opened from now on follow them. */
  configure(options: KeeperOptions): void {
    this.#options = options
    // A bot starting in this process: a former one's lifecycle no longer decides anything.
    this.#restarter = undefined
    this.#active = false
    this.#waiting.clear()
  }

  get policy(): IsolationPolicy {
    return this.#options.policy
  }

  /** How a spore runs under the current policy. */
  isolationOf(name: string, dir: string) {
    return isolationOf(this.#options.policy, name, dir)
  }

  /** Once the running bot exists: a host that goes down is then restarted. */
  attach(restarter: Restarter): void {
    this.#restarter = restarter
    this.#active = false
  }

  /** Once every spore has been started: what went down during start-up is started again now. */
  activate(): void {
    this.#active = true
    const waiting = [...this.#waiting]
    this.#waiting.clear()
    for (const name of waiting) if (this.#restarter?.isCurrent(name, undefined)) this.#restart(name, 0)
  }

  /** A transient host (a schema read for a spore that is not running) is never restarted. */
  async open(spore: string, { transient = false }: { readonly transient?: boolean } = {}): Promise<Host> {
    const worker = startHostWorker(await hostRuntime())
    const host = new Host({
      worker,
      spore,
      deadlines: this.#options.deadlines,
      syncMs: this.#options.syncMs ?? CORE_SYNC_MS,
      graceMs: this.#answerMs,
      onDown: (down, reason) => {
        if (!transient) return this.#down(down, reason)
        this.end(down)
        this.#options.logger.warn('a spore host read for its schema ended', { spore, reason })
      },
    })
    this.#hosts.add(host)
    this.#startWatch()
    return host
  }

  /** Records that `instance` (what create() gave, proxied) lives in `host`. */
  adopt(host: Host, instance: object): void {
    this.#byInstance.set(instance, host)
    this.#instances.set(host, instance)
  }

  hostOf(instance: unknown): Host | undefined {
    return typeof instance === 'object' && instance !== null ? this.#byInstance.get(instance) : undefined
  }

  /** Ends a host the core no longer needs. */
  end(host: Host | undefined): void {
    if (host === undefined) return
    this.#hosts.delete(host)
    host.end()
    if (this.#hosts.size === 0) this.#stopWatch()
  }

  /**
   * Lets go of a host whose spore will not run because a call into it failed. A missed deadline is
   * a fault when the host cannot answer a ping either (code that never yields): it is then ended as
   * one, and its spore restarted; otherwise, and for any other failure, it is simply ended.
   */
  discard(host: Host | undefined, error: unknown): void {
    if (host === undefined) return
    if (!(error instanceof DeadlineExceeded) || host.down !== undefined) {
      this.end(host)
      return
    }
    void host.heap(this.#answerMs).then((heap) => {
      if (heap === undefined) host.kill(`did not answer within ${seconds(error.ms)}`)
      else this.end(host)
    })
  }

  /** The bot stops: every host ends, and nothing is restarted any more. */
  endAll(): void {
    this.#restarter = undefined
    this.#active = false
    this.#waiting.clear()
    for (const host of [...this.#hosts]) this.end(host)
  }

  recordOf(name: string): HostRecord | undefined {
    return this.#records.get(name)
  }

  /** How many hosts run now. */
  get size(): number {
    return this.#hosts.size
  }

  /** The spores that have a host now (one name per host), for the surfaces and tests that ask. */
  get spores(): string[] {
    return [...this.#hosts].map((host) => host.spore)
  }

  get #answerMs(): number {
    return this.#options.answerMs ?? 5_000
  }

  #down(host: Host, reason: string): void {
    this.#hosts.delete(host)
    const name = host.spore
    const instance = this.#instances.get(host)
    const restarter = this.#restarter
    // Before the running bot exists (a fault while germinating) it is decided once it has started.
    const current = restarter === undefined || restarter.isCurrent(name, instance)
    this.#options.logger.warn('a spore host ended', { spore: name, reason, restarting: current })
    if (!current) return
    const previous = this.#records.get(name)
    const recent = previous?.at !== undefined && Date.now() - previous.at < RESTART_WINDOW_MS
    const restarts = (previous?.restarts ?? 0) + 1
    this.#records.set(name, { restarts, lastFault: reason, at: Date.now() })
    restarter?.markDown(name, `${reason}; restarting`)
    if (!this.#active || restarter === undefined) {
      this.#waiting.add(name)
      return
    }
    this.#restart(name, recent ? Math.min(MAX_BACKOFF_MS, 1_000 * 2 ** Math.min(restarts - 2, 6)) : 0)
  }

  /** Starts a spore again after `delayMs`: at once the first time, with backoff when it keeps failing. */
  #restart(name: string, delayMs: number): void {
    const restarter = this.#restarter
    if (restarter === undefined) return
    const restart = async () => {
      try {
        await restarter.restart(name)
      } catch (error) {
        this.#options.logger.error('a spore host could not be restarted', {
          spore: name,
          error: String(error),
        })
      }
    }
    if (delayMs === 0) void restart()
    else setTimeout(restart, delayMs).unref?.()
  }

  #startWatch(): void {
    if (this.#watch !== undefined) return
    this.#baseline ??= process.memoryUsage.rss()
    this.#watch = setInterval(() => {
      this.#bound()
      void this.#sweep()
    }, this.#options.watchMs ?? 1_000)
    this.#watch.unref?.()
  }

  /**
   * A host allocating in a loop that never yields cannot be asked its heap, and can take gigabytes
   * before its ping is overdue: while the process is past the bot's share plus every host's ceiling,
   * each host that has not answered since the last tick is ended.
   */
  #bound(): void {
    let budget = (this.#baseline ?? 0) * 2
    for (const host of this.#hosts) budget += this.#ceilingOf(host.spore) * MIB
    if (process.memoryUsage.rss() <= budget) return
    const since = Date.now() - (this.#options.watchMs ?? 1_000)
    for (const [host, asked] of this.#asked) {
      if (asked <= since && host.down === undefined) {
        host.kill("did not answer while the bot's memory grew past its bound")
      }
    }
  }

  #ceilingOf(spore: string): number {
    return this.#options.policy.memory[spore] ?? this.#options.policy.memoryMiB
  }

  #stopWatch(): void {
    clearInterval(this.#watch)
    this.#watch = undefined
  }

  /** Asks each host its heap: one that cannot answer, or holds more than its ceiling, is ended. */
  async #sweep(): Promise<void> {
    if (this.#watching) return
    this.#watching = true
    try {
      await Promise.all(
        // A host still loading or creating is bounded by that call's own deadline: a module may take
        // seconds to evaluate (a channel library) without yielding, and that is not a fault.
        [...this.#hosts]
          .filter((host) => this.#instances.has(host))
          .map(async (host) => {
            this.#asked.set(host, Date.now())
            const heap = await host.heap(this.#answerMs)
            this.#asked.delete(host)
            if (host.down !== undefined || !this.#hosts.has(host)) return
            if (heap === undefined) return host.kill(`did not answer within ${seconds(this.#answerMs)}`)
            const ceiling = this.#ceilingOf(host.spore)
            if (heap > ceiling * MIB) {
              host.kill(`held ${Math.round(heap / MIB)} MiB, over its ceiling of ${ceiling} MiB`)
            }
          }),
      )
    } finally {
      this.#watching = false
    }
  }
}

/** The one keeper of the process: germination opens hosts through it wherever it runs. */
export const hostKeeper = new HostKeeper({
  logger: { debug() {}, info() {}, warn() {}, error() {}, child: () => hostKeeperLogger },
  deadlines: DEFAULT_DEADLINES,
  policy: DEFAULT_POLICY,
})
const hostKeeperLogger = { debug() {}, info() {}, warn() {}, error() {}, child: () => hostKeeperLogger }
