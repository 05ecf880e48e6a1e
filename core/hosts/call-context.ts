import type { AsyncLocalStorage } from 'node:async_hooks'

/** How many of this side's calls stay reachable for the other side's calls made while serving them. */
const KEPT = 1_024

/**
 * The async context a call keeps across the bridge, as it would inline. A hypha that emits inside
 * its own AsyncLocalStorage (which message it is answering) is sent that message's reply in it; a
 * spore's call into the core made while the core waits on one of its handlers is served in that
 * handler's context (the person acting, for the audit). Each side stamps a call with the other
 * side's call it is serving, if any; the side that made that call runs the new one in its context.
 *
 * Kept only once this side holds a handle of the other's (see track): until then nothing it runs can
 * call the other side, so no context is needed, and a spore host that is loaded and created but not
 * yet called (an enzyme at boot) never loads node:async_hooks, a few milliseconds of each host's start.
 */
export class CallContexts {
  /** The other side's call this side is serving now (its seq), through every await that follows. */
  #serving: AsyncLocalStorage<number> | undefined
  #storage: typeof AsyncLocalStorage | undefined
  /** This side's recent calls, by seq, each with the async context it was made in (a snapshot). */
  readonly #made = new Map<number, Snapshot>()
  /** The latest of this side's calls whose context was let go to keep KEPT: 0 while none was. */
  #forgotten = 0

  /** This side holds a handle of the other's from now on: what it serves is kept in context. */
  track(): void {
    if (this.#serving !== undefined) return
    this.#storage = (require('node:async_hooks') as typeof import('node:async_hooks')).AsyncLocalStorage
    this.#serving = new this.#storage<number>()
  }

  /** Keeps the context of a call this side makes now. */
  made(seq: number): void {
    if (this.#storage === undefined) return
    this.#made.set(seq, this.#storage.snapshot())
    if (this.#made.size > KEPT) {
      this.#forgotten = this.#made.keys().next().value as number
      this.#made.delete(this.#forgotten)
    }
  }

  /** The other side's call this side is serving, to stamp on a call it makes now. */
  get via(): number | undefined {
    return this.#serving?.getStore()
  }

  /**
   * Serves the other side's call `seq`, in the context of this side's call `via` when it names one.
   * A call made serving one whose context was let go is refused rather than served in none: served
   * without the person a command runs for, a mycelium call would be bounded by the spore's scopes alone.
   */
  serve<T>(seq: number, via: number | undefined, work: () => T): T {
    const serving = this.#serving
    if (serving === undefined) return work()
    const served = () => serving.run(seq, work)
    const context = via === undefined ? undefined : this.#made.get(via)
    if (context !== undefined) return context(served)
    if (via !== undefined && via <= this.#forgotten) throw new ForgottenCallError(via)
    return served()
  }
}

/** A call made while serving one of this side's calls that is too long past for its context to be kept. */
export class ForgottenCallError extends Error {
  override readonly name = 'ForgottenCallError'
  constructor(via: number) {
    super(`refused: it was made serving call ${via}, whose context (who it runs for) is no longer kept`)
  }
}

/** Runs a function in the async context the snapshot was taken in. */
type Snapshot = <R>(fn: () => R) => R
