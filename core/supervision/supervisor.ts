import { rmSync } from 'node:fs'
import type { ConnectionReports, ConnectionRetry, Health, Logger } from '@mycelo/septum'
import type { GerminatedSpore, Germination } from '../germination/index.ts'
import { askHealth, reportsHealth } from './health-asking.ts'
import type { Regermination } from './regermination.ts'
import { writeSnapshot } from './snapshot.ts'
import {
  backoffMs,
  describeSupervised,
  type Supervised,
  type SupervisedState,
  type SupervisionWords,
} from './supervised.ts'
import { SupervisionLog } from './supervision-log.ts'

export interface SupervisorOptions {
  readonly germination: Germination
  readonly lifecycle: Regermination
  readonly logger: Logger
  /** The core's `supervision.*` words, in the locale of whoever reads them. */
  readonly words: SupervisionWords
  /** How often every live rhiza's, and every reporting channel's, health() is asked. */
  readonly pollMs?: number
  readonly healthMs: number
  readonly backoff?: { readonly initialMs?: number; readonly maxMs?: number }
  /** The shortest gap between two log lines about one spore; the lines in between are counted. */
  readonly logGapMs?: number
  /** Where the running bot keeps its states for the command line to read (see snapshot.ts). */
  readonly snapshot?: string | undefined
}

/** Reasons that say a channel's connect() failed: worth trying again, unlike a refused manifest. */
const CONNECT_FAILED = /^connect\(\) (failed|did not finish)/

/**
 * The supervised state of every hypha and rhiza, the one every surface reads. A channel whose
 * connect() failed, or that says it lost its connection and leaves the retry to the core, is started
 * again with exponential backoff and jitter; one that reconnects by itself says how it goes, and is
 * read as it says. health() is polled on an interval and its last change and last error kept.
 */
export class Supervisor {
  readonly #options: SupervisorOptions
  readonly #states = new Map<string, Supervised>()
  readonly #retries = new Map<string, ReturnType<typeof setTimeout>>()
  /** Channels that said they lost their connection and are finding their way back by themselves. */
  readonly #selfHealing = new Set<string>()
  readonly #log: SupervisionLog
  readonly #returns: ((name: string) => void)[] = []
  #poll: ReturnType<typeof setInterval> | undefined
  #stopped = false
  #running = false

  constructor(options: SupervisorOptions) {
    this.#options = options
    this.#log = new SupervisionLog({
      logger: options.logger,
      words: options.words,
      gapMs: options.logGapMs ?? 60_000,
    })
    options.lifecycle.watchConnecting((spore) => this.connecting(spore.name))
  }

  /** Called once start-up has run: records each state, schedules retries, starts polling. */
  begin(): void {
    this.#running = true
    this.observeAll()
    this.#keep()
    this.#options.lifecycle.watch(() => this.observeAll())
    // At once, so no surface calls a channel live for a whole interval before it is first asked.
    void this.poll()
    const pollMs = this.#options.pollMs ?? 5_000
    this.#poll = setInterval(() => void this.poll(), pollMs)
    this.#poll.unref?.()
  }

  /** Told each time a channel or system that was down is live again (the metrics count them). */
  watchReturns(watcher: (name: string) => void): void {
    this.#returns.push(watcher)
  }

  /** The state of a hypha or rhiza; undefined for another kind. */
  stateOf(name: string): Supervised | undefined {
    const spore = this.#options.germination.byName.get(name)
    if (spore?.kind !== 'hypha' && spore?.kind !== 'rhiza') return undefined
    return this.#states.get(name) ?? this.#fromSpore(spore)
  }

  /** Whether a surface must not call it live, and why, in the reader's words. */
  notLive(name: string): string | undefined {
    const supervised = this.stateOf(name)
    if (supervised === undefined || supervised.state === 'live' || supervised.state === 'stopped')
      return undefined
    return describeSupervised(supervised, this.#options.words)
  }

  /** What a hypha's context carries to say where its connection stands; its former selves are not heard. */
  reportsFor(spore: GerminatedSpore): ConnectionReports {
    const current = () => !this.#stopped && this.#options.germination.byName.get(spore.name) === spore
    return {
      up: () => {
        if (current()) this.#up(spore.name)
      },
      lost: (reason, retry) => {
        if (current()) this.#lost(spore.name, String(reason), retry)
      },
    }
  }

  /** A hypha's connect() is under way: it reads connecting, unless it is a retry already counted. */
  connecting(name: string): void {
    if (this.#stopped) return
    this.#selfHealing.delete(name)
    if (this.#states.get(name)?.state === 'reconnecting' && !this.#retries.has(name)) return
    this.#set(name, { state: 'connecting' })
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
      // Started is not reachable: one that reaches nothing stays so until it says otherwise.
      if (this.#selfHealing.has(spore.name) || this.#retries.has(spore.name)) return
      if (current?.state !== 'unreachable') this.#set(spore.name, { state: 'live' })
      return
    }
    this.#selfHealing.delete(spore.name)
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

  /**
   * Takes in one health() answer, from the poll or from a surface that asked. Healthy is live; a
   * channel finding its way back stays as it is whatever else its health says; otherwise
   * degraded is live with its detail kept, and unreachable is unreachable.
   */
  record(name: string, health: Pick<Health, 'state' | 'detail'>): void {
    if (this.#stopped) return
    const current = this.#states.get(name)
    const returning = current?.state === 'reconnecting' || current?.state === 'connecting'
    if (health.state === 'healthy' && !this.#retries.has(name)) {
      this.#selfHealing.delete(name)
      this.#set(name, { state: 'live' })
    } else if (returning) {
      // What the channel or the retry said of its loss says more than a health detail.
      return
    } else if (health.state === 'unreachable') {
      this.#set(name, { state: 'unreachable', lastError: health.detail ?? 'health() says unreachable' })
    } else if (health.state === 'degraded') {
      this.#set(name, { state: 'live', ...(health.detail ? { lastError: health.detail } : {}) })
    }
  }

  stop(): void {
    if (this.#running && this.#options.snapshot) rmSync(this.#options.snapshot, { force: true })
    this.#stopped = true
    if (this.#poll) clearInterval(this.#poll)
    for (const timer of this.#retries.values()) clearTimeout(timer)
    this.#retries.clear()
  }

  #up(name: string): void {
    this.#selfHealing.delete(name)
    this.#clearRetry(name)
    this.#set(name, { state: 'live' })
  }

  #lost(name: string, reason: string, retry: ConnectionRetry | undefined): void {
    if (retry === undefined) {
      this.#selfHealing.delete(name)
      this.#scheduleRetry(name, reason)
      return
    }
    this.#selfHealing.add(name)
    const attempt = Number.isSafeInteger(retry.attempt) && retry.attempt > 0 ? retry.attempt : 1
    const inMs = retry.inMs
    const nextAt = typeof inMs === 'number' && inMs >= 0 ? { nextAt: new Date(Date.now() + inMs) } : {}
    this.#set(name, { state: 'reconnecting', attempt, ...nextAt, lastError: reason })
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

  #set(name: string, next: Omit<Supervised, 'lastChange'> & { lastChange?: Date }): void {
    const previous = this.#states.get(name)
    const changed = previous?.state !== next.state
    const lastChange = changed || previous === undefined ? new Date() : previous.lastChange
    // Live and connecting start afresh; a state still down keeps the last failure it knew.
    const fresh = next.state === 'live' || next.state === 'connecting'
    const lastError = next.lastError ?? (fresh ? undefined : previous?.lastError)
    const { lastError: _given, lastChange: _kept, ...rest } = next
    const settled: Supervised = { ...rest, lastChange, ...(lastError ? { lastError } : {}) }
    this.#states.set(name, settled)
    if (changed) this.#log.changed(name, previous?.state, settled)
    const wasDown = previous?.state === 'reconnecting' || previous?.state === 'unreachable'
    if (wasDown && settled.state === 'live') for (const watcher of this.#returns) watcher(name)
    const moved =
      changed || previous?.attempt !== settled.attempt || previous?.lastError !== settled.lastError
    if (moved) this.#keep()
  }

  /** The states as they now stand, for the command line; only a running bot writes them. */
  #keep(): void {
    const path = this.#options.snapshot
    if (path !== undefined && this.#running && !this.#stopped) writeSnapshot(path, this.#states)
  }

  #fromSpore(spore: GerminatedSpore): Supervised {
    const state: SupervisedState = spore.state === 'live' ? 'live' : 'stopped'
    return { state, lastChange: new Date(0) }
  }
}
