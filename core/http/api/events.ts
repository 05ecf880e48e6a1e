// Live updates for the page: spore states as they change, install progress, new log lines. One
// hub per API; every open /events stream subscribes to it and leaves when the reader goes away.
import type { PluginInfo } from '@mycelo/septum'
import { pluginsRead } from '../../mycelium/plugins.ts'
import type { CoreRuntime } from '../../rhizomorph/runtime.ts'
import type { ApiEvent } from './event.ts'

export type { ApiEvent }

export type EventListener = (event: ApiEvent) => void

/** The logger's tap (core/boot/log.ts `Logging.tap`): each finished, redacted line as it is written. */
export type LogTap = (listener: (line: string) => void) => () => void

/** How often the hub looks for changes made on other surfaces (chat, the command line) while anyone reads. */
const LOOK_MS = 5_000

export class ApiEvents {
  readonly #runtime: CoreRuntime
  readonly #listeners = new Set<EventListener>()
  #seen = new Map<string, string>()
  #untap: (() => void) | undefined
  #looking: ReturnType<typeof setInterval> | undefined
  #closed = false

  constructor(runtime: CoreRuntime, logs?: LogTap) {
    this.#runtime = runtime
    this.#untap = logs?.((line) => this.#logLine(line))
  }

  /**
   * One look per beat for the whole hub, however many streams are open, and none while nobody
   * reads: the first reader takes the baseline (each stream starts from every spore as it stands).
   */
  subscribe(listener: EventListener): () => void {
    if (this.#listeners.size === 0 && !this.#closed) {
      this.#seen = fingerprints(pluginsRead(this.#runtime).listPlugins())
      this.#looking = setInterval(() => this.stateChanged(), LOOK_MS)
      this.#looking.unref()
    }
    this.#listeners.add(listener)
    return () => {
      this.#listeners.delete(listener)
      if (this.#listeners.size === 0) this.#stopLooking()
    }
  }

  publish(event: ApiEvent): void {
    for (const listener of this.#listeners) {
      // One reader's broken stream never keeps the event from the others.
      try {
        listener(event)
      } catch {}
    }
  }

  /**
   * Looks at every spore again and announces the ones that changed. Called after each write the
   * API makes, and by whatever else changes states (germination, supervision) through this hub.
   */
  stateChanged(): void {
    // After close the store may be gone: a stream still waking up must not read it. With no
    // reader there is nobody to tell; the next first reader takes a fresh baseline.
    if (this.#closed || this.#listeners.size === 0) return
    const spores = pluginsRead(this.#runtime).listPlugins()
    const now = fingerprints(spores)
    const changed = spores.filter((spore) => this.#seen.get(spore.name) !== now.get(spore.name))
    this.#seen = now
    if (changed.length > 0) this.publish({ type: 'state', spores: changed })
  }

  /** Whether close() was called: every stream ends at its next beat. */
  get closed(): boolean {
    return this.#closed
  }

  /** Called before the store closes at shut-down; nothing is announced after it. */
  close(): void {
    this.#closed = true
    this.#untap?.()
    this.#untap = undefined
    this.#listeners.clear()
    this.#stopLooking()
  }

  #stopLooking(): void {
    clearInterval(this.#looking)
    this.#looking = undefined
  }

  #logLine(line: string): void {
    // Nothing here may log: a line about a log line would feed itself.
    if (this.#listeners.size === 0) return
    let record: unknown
    try {
      record = JSON.parse(line)
    } catch {
      record = { msg: line.trimEnd() }
    }
    if (typeof record === 'object' && record !== null) {
      this.publish({ type: 'log', record: record as Record<string, unknown> })
    }
  }
}

function fingerprints(spores: readonly PluginInfo[]): Map<string, string> {
  return new Map(
    spores.map((spore) => [spore.name, JSON.stringify([spore.state, spore.enabled, spore.reason ?? null])]),
  )
}
