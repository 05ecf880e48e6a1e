import type { Wire } from './marshal.ts'

/**
 * What one side posts to the other, as it goes on the wire: a message as JSON text when every value
 * in it survives JSON (see Wire), else as it is; messages held for a turn as one JSON list.
 *
 * Waking the other thread is most of what a crossing costs (a bare round trip to a worker costs
 * more than a whole command inline). So a host holds the replies a handler makes ahead (see
 * markAhead) and sends them together before the handler's code goes on (a microtask): never later,
 * so a handler that then loops forever cannot keep a reply it was told was on its way. Anything else
 * it posts at once, after what it holds: order is kept.
 */
export class Outgoing<M extends { readonly t: string }> {
  readonly #post: (data: M | string) => void
  readonly #hold: boolean
  #held: string[] = []
  #scheduled = false

  /** `hold`: messages sent held wait for the next one or the current microtasks' end; without it none waits. */
  constructor(post: (data: M | string) => void, hold: boolean) {
    this.#post = post
    this.#hold = hold
  }

  /** Sends `message`: at once, after what is held; or, `held`, with the next message or before the code that made it goes on. */
  send(message: M, wire: Wire, held = false): void {
    if (held && this.#hold && wire.plain) {
      this.#held.push(JSON.stringify(message))
      this.#schedule()
      return
    }
    if (this.#held.length === 0) {
      this.#post(wire.plain ? JSON.stringify(message) : message)
      return
    }
    if (!wire.plain) {
      // A structured clone is taken when posted, and may fail: it goes alone, after what is held.
      this.flush()
      this.#post(message)
      return
    }
    this.#held.push(JSON.stringify(message))
    this.flush()
  }

  /** Posts what is held, as one message. */
  flush(): void {
    const held = this.#held
    if (held.length === 0) return
    this.#held = []
    this.#post(held.length === 1 ? held[0]! : `[${held.join(',')}]`)
  }

  #schedule(): void {
    if (this.#scheduled) return
    this.#scheduled = true
    queueMicrotask(() => {
      this.#scheduled = false
      try {
        this.flush()
      } catch {
        // The other side is gone: what was held goes nowhere, as it would have posted at once.
      }
    })
  }
}

/** The messages in what the other side posted: one, or a turn's list (always JSON text). */
export function decodeAll<M>(data: M | string): M[] {
  if (typeof data !== 'string') return [data]
  const parsed = JSON.parse(data) as M | M[]
  return Array.isArray(parsed) ? parsed : [parsed]
}

export function decode<M>(data: M | string): M {
  return typeof data === 'string' ? (JSON.parse(data) as M) : data
}
