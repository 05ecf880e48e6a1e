import type { IncomingMessage, Logger } from '@mycelo/septum'

type MessageListener = (message: IncomingMessage) => void | Promise<void>

/** What enzymes registered with `ctx.on('message', …)`: told of every admitted message. */
export class MessageListeners {
  readonly #listeners: { spore: string; listener: MessageListener }[] = []

  get size(): number {
    return this.#listeners.length
  }

  /** Answers the way to take it back again (the core's own listeners leave with what opened them). */
  add(spore: string, listener: MessageListener): () => void {
    const entry = { spore, listener }
    this.#listeners.push(entry)
    return () => {
      const index = this.#listeners.indexOf(entry)
      if (index >= 0) this.#listeners.splice(index, 1)
    }
  }

  /** Drops what a spore registered: it stopped, and its next self registers its own. */
  remove(spore: string): void {
    for (let index = this.#listeners.length - 1; index >= 0; index--) {
      if (this.#listeners[index]!.spore === spore) this.#listeners.splice(index, 1)
    }
  }

  /** Runs every listener; one that throws is logged with its spore's name and never escapes. */
  async notify(message: IncomingMessage, logger: Logger): Promise<void> {
    if (this.#listeners.length === 0) return
    await Promise.all(
      this.#listeners.map(async ({ spore, listener }) => {
        try {
          await listener(message)
        } catch (error) {
          logger.error('a message listener failed', { spore, error: describe(error) })
        }
      }),
    )
  }
}

export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
