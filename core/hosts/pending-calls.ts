import { Watch, watchFor } from '../supervision/deadline-lines.ts'

/** How long a call across may wait, and what its failure says when that passes. */
export interface CallDeadline {
  /** The member's deadline, as its failure words it. */
  readonly ms: number
  /** How long the bridge waits: a little past `ms`, so the caller's own deadline speaks first. */
  readonly waitMs: number
  /** Told when it passes: the call has already failed with `error`. */
  readonly onExpired: (step: string, ms: number) => Error
  readonly step: string
}

interface Pending {
  readonly resolve: (value: unknown) => void
  readonly reject: (error: unknown) => void
  readonly watch: Watch | undefined
}

/** A call across waiting on its deadline, in the core's shared deadline lines (one timer per length). */
class CallWatch extends Watch {
  constructor(readonly expired: () => void) {
    super()
  }

  expire(): void {
    this.expired()
  }
}

/** This side's calls waiting for the other side's answer, by sequence number, each on its deadline. */
export class PendingCalls {
  readonly #pending = new Map<number, Pending>()

  /** Waits for call `seq`'s answer; `post` sends the call, and a throw from it fails the call at once. */
  wait(seq: number, post: () => void, deadline: CallDeadline | undefined): Promise<unknown> {
    let watch: Watch | undefined
    const answer = new Promise((resolve, reject) => {
      if (deadline !== undefined) {
        watch = new CallWatch(() => {
          this.#pending.delete(seq)
          reject(deadline.onExpired(deadline.step, deadline.ms))
        })
      }
      this.#pending.set(seq, { resolve, reject, watch })
    })
    try {
      post()
    } catch (error) {
      this.#pending.delete(seq)
      return Promise.reject(error)
    }
    if (watch !== undefined && deadline !== undefined) watchFor(deadline.waitMs, watch)
    return answer
  }

  /** Settles call `seq` with `settle` if it still waits (its deadline may have passed). */
  settle(
    seq: number,
    settle: (resolve: (value: unknown) => void, reject: (error: unknown) => void) => void,
  ): void {
    const pending = this.#pending.get(seq)
    if (pending === undefined) return
    this.#pending.delete(seq)
    pending.watch?.release()
    settle(pending.resolve, pending.reject)
  }

  /** Fails every call still waiting. */
  failAll(error: Error): void {
    for (const [seq, pending] of this.#pending) {
      pending.watch?.release()
      this.#pending.delete(seq)
      pending.reject(error)
    }
  }
}
