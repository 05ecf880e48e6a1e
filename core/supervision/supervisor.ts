import type { Health, Logger } from '@mycelo/septum'
import type { GerminatedSpore, Germination } from '../germination/index.ts'
import { askHealth, reportsHealth } from './health-asking.ts'
import type { Regermination } from './regermination.ts'
import { backoffMs, describeSupervised, type Supervised, type SupervisedState } from './supervised.ts'

export interface SupervisorOptions {
  readonly germination: Germination
  readonly lifecycle: Regermination
  readonly logger: Logger
  /** How often every live rhiza's, and every reporting channel's, health() is asked. */
  readonly pollMs?: number
  readonly healthMs: number
  readonly backoff?: { readonly initialMs?: number; readonly maxMs?: number }
  /** The shortest gap between two log lines about one spore; the lines in between are counted. */
  readonly logGapMs?: number
}

/** Reasons that say a channel's connect() failed: worth trying again, unlike a refused manifest. */
const CONNECT_FAILED = /^connect\(\) (failed|did not finish)/

/**
 * The supervised state of every hypha and rhiza, the one every surface reads. A channel whose
 * connect() failed is started again with exponential backoff and jitter; health() is polled on an
 * interval and its last change and last error kept. State changes are logged, a flapping spore at
 * most once per gap (the lines it saved are counted in the next one).
 */
export class Supervisor {
  readonly #options: SupervisorOptions
  readonly #states = new Map<string, Supervised>()
  readonly #retries = new Map<string, ReturnType<typeof setTimeout>>()
  readonly #logged = new Map<string, { at: number; saved: number; lostSaid: boolean }>()
  #poll: ReturnType<typeof setInterval> | undefined
  #stopped = false

  constructor(options: SupervisorOptions) {
    this.#options = options
  }

  /** Called once start-up has run: records each state, schedules retries, starts polling. */
  begin(): void {
    this.observeAll()
    this.#options.lifecycle.watch(() => this.observeAll())
    // At once, so no surface calls a channel live for a whole interval before it is first asked.
    void this.poll()
    const pollMs = this.#options.pollMs ?? 5_000
    this.#poll = setInterval(() => void this.poll(), pollMs)
    this.#poll.unref?.()
  }

  /** The state of a hypha or rhiza; undefined for another kind. */
  stateOf(name: string): Supervised | undefined {
    const spore = this.#options.germination.byName.get(name)
    if (spore?.kind !== 'hypha' && spore?.kind !== 'rhiza') return undefined
    return this.#states.get(name) ?? this.#fromSpore(spore)
  }

  /** Whether a surface must not call it live: connected to nothing that answers. */
  notLive(name: string): string | undefined {
    const supervised = this.stateOf(name)
    if (supervised === undefined || supervised.state === 'live' || supervised.state === 'stopped')
      return undefined
    return describeSupervised(supervised)
  }

  /** Takes every spore's germination state in, after start-up and after each change. */
  observeAll(): void {
    if (this.#stopped) return
    for (const spore of this.#options.germination.spores) this.observe(spore)
  }

  /** Takes a spore's germination state in: a failed connect() is retried. */
  observe(spore: GerminatedSpore): void {
    if (spore.kind !== 'hypha' && spore.kind !== 'rhiza') return
    const current = this.#states.get(spore.name)
    if (spore.state === 'live') {
      // Started is not reachable: an unreachable one stays so until its health() says otherwise.
      if (current?.state !== 'unreachable') this.#set(spore.name, { state: 'live' })
      return
    }
    if (spore.kind === 'hypha' && spore.state === 'dormant' && CONNECT_FAILED.test(spore.reason ?? '')) {
      this.#scheduleRetry(spore.name, spore.reason ?? 'connect() failed')
      return
    }
    this.#clearRetry(spore.name)
    this.#set(spore.name, { state: 'stopped' })
  }

  /** Asks every live rhiza, and every channel that reports its health, once. */
  async poll(): Promise<void> {
    const spores = this.#options.germination.spores.filter(reportsHealth)
    const ms = this.#options.healthMs
    await Promise.all(spores.map(async (spore) => this.record(spore.name, await askHealth(spore, { ms }))))
  }

  /** Takes in one health() answer, from the poll or from a surface that asked. */
  record(name: string, health: Pick<Health, 'state' | 'detail'>): void {
    if (this.#stopped) return
    if (health.state === 'unreachable') {
      this.#set(name, { state: 'unreachable', lastError: health.detail ?? 'health() says unreachable' })
    } else {
      const lastError = health.state === 'degraded' ? health.detail : undefined
      this.#set(name, { state: 'live', ...(lastError ? { lastError } : {}) })
    }
  }

  stop(): void {
    this.#stopped = true
    if (this.#poll) clearInterval(this.#poll)
    for (const timer of this.#retries.values()) clearTimeout(timer)
    this.#retries.clear()
  }

  #scheduleRetry(name: string, error: string): void {
    if (this.#stopped || this.#retries.has(name)) return
    const previous = this.#states.get(name)
    const attempt = previous?.state === 'reconnecting' ? (previous.attempt ?? 0) + 1 : 1
    const waitMs = backoffMs(attempt, this.#options.backoff)
    this.#set(name, {
      state: 'reconnecting',
      attempt,
      nextAt: new Date(Date.now() + waitMs),
      lastError: error,
    })
    const timer = setTimeout(() => {
      this.#retries.delete(name)
      if (this.#stopped) return
      // Its outcome comes back through observeAll, like any change's.
      void this.#options.lifecycle.restart(name)
    }, waitMs)
    timer.unref?.()
    this.#retries.set(name, timer)
  }

  #clearRetry(name: string): void {
    const timer = this.#retries.get(name)
    if (timer) clearTimeout(timer)
    this.#retries.delete(name)
  }

  #set(name: string, next: Omit<Supervised, 'lastChange'>): void {
    const previous = this.#states.get(name)
    const changed = previous?.state !== next.state
    const lastChange = changed || previous === undefined ? new Date() : previous.lastChange
    const lastError = next.lastError ?? (next.state === 'live' ? undefined : previous?.lastError)
    this.#states.set(name, { ...next, lastChange, ...(lastError ? { lastError } : {}) })
    // A spore down from the start is a loss too: its return must be said.
    const down = next.state !== 'live' && next.state !== 'stopped'
    if (changed && (previous !== undefined || down)) {
      this.#log(name, previous?.state ?? 'connecting', this.#states.get(name)!)
    }
  }

  /**
   * A loss is logged at most once per gap, and its return once after it: a flapping spore writes
   * two lines per gap, the next loss naming how many changes went unlogged in between.
   */
  #log(name: string, from: SupervisedState, to: Supervised): void {
    const now = Date.now()
    const gap = this.#options.logGapMs ?? 60_000
    const last = this.#logged.get(name) ?? { at: Number.NEGATIVE_INFINITY, saved: 0, lostSaid: false }
    this.#logged.set(name, last)
    const meta = { spore: name, from, state: describeSupervised(to, now) }
    if (to.state === 'live' || to.state === 'stopped') {
      if (!last.lostSaid) {
        last.saved++
        return
      }
      last.lostSaid = false
      if (to.state === 'live') this.#options.logger.info('back: connected again', meta)
      return
    }
    if (now - last.at < gap) {
      last.saved++
      return
    }
    const unlogged = last.saved
    Object.assign(last, { at: now, saved: 0, lostSaid: true })
    this.#options.logger.warn('connection lost', { ...meta, ...(unlogged ? { unlogged } : {}) })
  }

  #fromSpore(spore: GerminatedSpore): Supervised {
    const state: SupervisedState = spore.state === 'live' ? 'live' : 'stopped'
    return { state, lastChange: new Date(0) }
  }
}
