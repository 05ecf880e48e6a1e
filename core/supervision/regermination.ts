import type { Logger } from '@mycelo/septum'
import {
  type ContextFactory,
  DISABLED_REASON,
  type GerminatedSpore,
  type Germination,
  type PluginStorePort,
} from '../germination/index.ts'
import { startOne } from '../germination/lifecycle.ts'
import { propagateDormancy } from '../germination/propagation.ts'
import { rescanFolders } from '../germination/rescan.ts'
import { stopStarted } from '../germination/shutdown.ts'
import { germinateOne } from '../germination/single.ts'
import { dropSpore, swapSpore } from '../germination/swap.ts'
import type { Deadlines } from './deadline.ts'

/** What a spore reads while it is stopped to be started again: never usable, so never reached. */
export const RESTARTING_REASON = 'restarting'

export interface RegerminationOptions {
  readonly germination: Germination
  readonly store: PluginStorePort
  readonly contexts: ContextFactory
  readonly deadlines: Deadlines
  readonly logger: Logger
  /**
   * Called once a spore's new self is in place, before it starts: whatever the core keeps keyed by
   * its name (contexts, listeners, routes, catalogues, its mycelium surface) is drawn again.
   */
  readonly swapped: (spore: GerminatedSpore) => void
  /** Called as a spore is about to stop: what it registered with the core (schedules) is let go. */
  readonly stopping?: (spore: GerminatedSpore) => void
  /** The spores folders and the installs folder, looked through again by a rescan. */
  readonly folders: readonly string[]
  readonly installs?: string | undefined
}

/** What a rescan did: the spores new since start-up (each disabled until enabled), and the refused. */
export interface Rescan {
  readonly found: readonly {
    readonly name: string
    readonly state: GerminatedSpore['state']
    readonly reason?: string
  }[]
  readonly refused: readonly { readonly name: string; readonly dir: string; readonly reason: string }[]
}

/** Where a spore stands once a change is applied: `live`, or the exact reason it is not. */
export interface Outcome {
  readonly state: GerminatedSpore['state']
  readonly reason?: string
  /** The spores that stopped and started again with it, in start order. */
  readonly dependants: readonly string[]
  /** Set when its new self failed and the running one was kept: `reason` says why. */
  readonly kept?: true
}

/**
 * Applies operator changes to the running bot, one at a time: enable, disable, restart with new
 * settings, reload from disk. Each stops what depends on the spore (in reverse order) before the
 * spore itself, and starts them again after it (in order). Between the two they read dormant,
 * `restarting`: no message reaches a half-started spore, and an enforcing inhibitor refuses.
 */
export class Regermination {
  readonly #options: RegerminationOptions
  #queue: Promise<unknown> = Promise.resolve()
  #busy = new Set<string>()
  #idle: Promise<void> = Promise.resolve()
  #fresh = 0
  #active = false
  readonly #watchers: (() => void)[] = []

  constructor(options: RegerminationOptions) {
    this.#options = options
  }

  /**
   * Whether changes start and stop spores: from the end of start-up on. The command-line companion
   * assembles a runtime it never starts: there a change is recorded and shown, and waits for the
   * bot's start. Callers check this before enable, disable and restart.
   */
  get active(): boolean {
    return this.#active
  }

  /** Called after every change, once it has settled (the supervisor reads the states again). */
  watch(watcher: () => void): void {
    this.#watchers.push(watcher)
  }

  /** Called once every spore has been started. */
  activate(): void {
    this.#active = true
  }

  /** Whether a spore is being stopped or started by a change right now. */
  restarting(name: string): boolean {
    return this.#busy.has(name)
  }

  /** Settles once no change is running (or `ms` have passed, whichever is first): answers which. */
  async settled(ms: number): Promise<boolean> {
    if (this.#busy.size === 0) return true
    let timer: ReturnType<typeof setTimeout> | undefined
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms)
    })
    const done = await Promise.race([this.#idle.then(() => true), late])
    clearTimeout(timer)
    return done
  }

  /** Germinates a spore whose row is now enabled, starts it, and brings back what waited on it. */
  enable(name: string): Promise<Outcome> {
    return this.#serial(async () => {
      const current = this.#spore(name)
      if (current?.state === 'live') return this.#outcome(name, [])
      // Its folder may have changed since its module was last imported (an upgrade, an edit).
      return this.#replace(name, { fresh: ++this.#fresh })
    })
  }

  /**
   * Looks for spore folders that appeared since start-up: each is recorded and shown at once,
   * disabled with its reason (or refused alone, for a name clash); nothing of it runs yet.
   */
  rescan(): Promise<Rescan> {
    return this.#serial(async () => {
      const { germination, store, logger, deadlines } = this.#options
      const finding = await rescanFolders({ ...this.#options, germination, store, logger })
      const found: Rescan['found'][number][] = []
      for (const reading of finding.found) {
        const next = await germinateOne({
          germination,
          dir: reading.dir,
          store,
          deadlineMs: deadlines.create,
        })
        await this.#bringUp(next)
        const now = this.#spore(next.name)
        found.push({
          name: next.name,
          state: now?.state ?? 'dormant',
          ...(now?.reason ? { reason: now.reason } : {}),
        })
      }
      return { found, refused: finding.refused }
    })
  }

  /**
   * After a sporangium changed a spore's folder (install, upgrade, rollback, uninstall): a new one
   * is found by a rescan; one whose row is now off is stopped; one not running is read again, so
   * its reason is today's; a gone one leaves; a running one is reloaded (its new code, or the old
   * one kept when the new cannot be created).
   */
  async settle(name: string): Promise<void> {
    const spore = this.#spore(name)
    if (spore === undefined) {
      await this.rescan()
      return
    }
    const row = this.#options.store.installOf(name)
    if (row === undefined || spore.dir === '') {
      await this.disable(name)
      await this.#serial(async () => {
        const gone = dropSpore(this.#options.germination, name)
        if (gone) this.#options.swapped(gone)
        return this.#outcome(name, [])
      })
      return
    }
    if (spore.state === 'live' && row.enabled) {
      await this.restart(name, { fresh: true })
      return
    }
    if (spore.state === 'live') {
      await this.disable(name)
      return
    }
    await this.#serial(() => this.#replace(name, {}))
  }

  /** Starts a live spore again from its folder; `fresh` also imports its code anew (a reload). */
  restart(name: string, { fresh = false }: { fresh?: boolean } = {}): Promise<Outcome> {
    return this.#serial(() => this.#replace(name, fresh ? { fresh: ++this.#fresh } : {}))
  }

  /**
   * Stops a spore whose row is now disabled: its dependants first, each then dormant naming what it
   * lacks. An enforcing inhibitor reads dormant until its stop has finished, so traffic stays refused.
   */
  disable(name: string): Promise<Outcome> {
    return this.#serial(async () => {
      const spore = this.#spore(name)
      if (spore === undefined || spore.state === 'disabled') return this.#outcome(name, [])
      const dependants = this.#dependantsOf(name)
      await this.#stop([spore, ...dependants])
      spore.state = 'disabled'
      spore.reason = this.#options.store.installOf(name)?.reason ?? DISABLED_REASON
      for (const dependant of dependants) dependant.state = 'live'
      propagateDormancy(this.#options.germination.order, this.#options.germination.byName)
      this.#options.swapped(spore)
      for (const dependant of dependants) this.#options.swapped(dependant)
      return this.#outcome(
        name,
        dependants.map((d) => d.name),
      )
    })
  }

  async #replace(name: string, { fresh }: { fresh?: number }): Promise<Outcome> {
    const { germination, store, deadlines } = this.#options
    const current = this.#spore(name)
    if (current === undefined) return { state: 'dormant', reason: 'not installed', dependants: [] }
    const dir = current.dir
    const next = await germinateOne({
      germination,
      dir,
      store,
      deadlineMs: deadlines.create,
      ...(fresh ? { fresh } : {}),
    })
    // A reloaded spore whose new code cannot be created keeps running as it was. New settings are
    // the operator's word, so a spore they leave dormant goes dormant, saying why.
    if (fresh && current.state === 'live' && next.state !== 'live' && next.state !== 'disabled') {
      this.#options.logger.warn('kept the running spore: its new version failed', {
        spore: name,
        reason: next.reason,
      })
      return { state: 'live', reason: next.reason ?? 'dormant', dependants: [], kept: true }
    }
    const dependants = current.state === 'live' ? this.#dependantsOf(name) : []
    await this.#stop([current, ...dependants])
    await this.#bringUp(next)
    return this.#outcome(name, await this.#revive(name))
  }

  /** Every dormant spore that mandatorily waited on `name` (transitively), germinated and started again. */
  async #revive(name: string): Promise<string[]> {
    const { germination, store, deadlines } = this.#options
    const revived = new Set([name])
    const started: string[] = []
    for (const spore of [...germination.order]) {
      if (revived.has(spore.name) || spore.state === 'live' || spore.state === 'disabled') continue
      if (!spore.mandatory.some((required) => revived.has(required)) || spore.dir === '') continue
      const next = await germinateOne({ germination, dir: spore.dir, store, deadlineMs: deadlines.create })
      await this.#bringUp(next)
      if (this.#spore(next.name)?.state === 'live') revived.add(next.name)
      started.push(next.name)
    }
    return started
  }

  /** Swaps the new self in and starts it; it counts as restarting (unreachable) until started. */
  async #bringUp(next: GerminatedSpore): Promise<void> {
    const { germination, contexts, deadlines } = this.#options
    if (next.state === 'live') this.#busy.add(next.name)
    swapSpore(germination, next)
    this.#options.swapped(next)
    // The command-line companion's runtime shows what is on disk but never starts a spore.
    if (next.state !== 'live' || !this.#active) return
    await startOne({ germination, spore: next, contexts, deadlines })
    this.#options.swapped(next)
  }

  /** Marks each one restarting (unusable at once), then stops them, dependants before what they need. */
  async #stop(spores: readonly GerminatedSpore[]): Promise<void> {
    const { germination, deadlines, logger } = this.#options
    for (const spore of spores) {
      this.#busy.add(spore.name)
      if (spore.state === 'live') {
        spore.state = 'dormant'
        spore.reason = RESTARTING_REASON
      }
    }
    for (const spore of [...spores].reverse()) {
      this.#options.stopping?.(spore)
      await stopStarted(germination, spore, { timeoutMs: deadlines.stop, logger })
    }
  }

  /** Live spores that cannot run without `name`, directly or through another, in start order. */
  #dependantsOf(name: string): GerminatedSpore[] {
    const needed = new Set([name])
    const found: GerminatedSpore[] = []
    for (const spore of this.#options.germination.order) {
      if (spore.state !== 'live' || needed.has(spore.name)) continue
      if (!spore.mandatory.some((required) => needed.has(required))) continue
      needed.add(spore.name)
      found.push(spore)
    }
    return found
  }

  #spore(name: string): GerminatedSpore | undefined {
    return this.#options.germination.byName.get(name)
  }

  #outcome(name: string, dependants: readonly string[]): Outcome {
    const spore = this.#spore(name)
    const state = spore?.state ?? 'dormant'
    return { state, ...(spore?.reason ? { reason: spore.reason } : {}), dependants }
  }

  #wake: () => void = () => undefined

  /** One change at a time, in the order they were asked for; a change never throws into the next. */
  #serial<T>(change: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(() => {
      this.#idle = new Promise<void>((resolve) => {
        this.#wake = resolve
      })
      return change()
    })
    this.#queue = run.then(
      () => this.#finish(),
      () => this.#finish(),
    )
    return run
  }

  #finish(): void {
    this.#busy.clear()
    this.#wake()
    for (const watcher of this.#watchers) watcher()
  }
}
