/** One reply as the page shows it: the text, when it was sent, and its place in the conversation. */
export interface Reply {
  readonly id: number
  readonly text: string
  readonly at: string
}

/** Where an open stream takes replies. */
export type ReplySink = (reply: Reply) => void

/** How many replies a conversation keeps for a page that reconnects: enough for a screenful. */
export const KEPT_PER_CONVERSATION = 50
/** How many conversations keep replies: the oldest quiet one is forgotten first, so memory stays bounded. */
export const KEPT_CONVERSATIONS = 200

/**
 * The replies of each conversation, the last KEPT_PER_CONVERSATION of each, and the streams open on
 * it. A page that reconnects says the last reply id it saw and gets what came after.
 */
export class ReplyBook {
  // A Map keeps insertion order: re-inserting on use makes its first key the least recently used.
  readonly #kept = new Map<string, Reply[]>()
  readonly #sinks = new Map<string, Set<ReplySink>>()
  #nextId = 1

  /** Keeps the reply and hands it to every stream open on the conversation. */
  deliver(conversationId: string, text: string): Reply {
    const reply: Reply = { id: this.#nextId++, text, at: new Date().toISOString() }
    const kept = this.#kept.get(conversationId) ?? []
    this.#kept.delete(conversationId)
    kept.push(reply)
    if (kept.length > KEPT_PER_CONVERSATION) kept.splice(0, kept.length - KEPT_PER_CONVERSATION)
    this.#kept.set(conversationId, kept)
    if (this.#kept.size > KEPT_CONVERSATIONS) this.#kept.delete(this.#kept.keys().next().value!)
    for (const sink of this.#sinks.get(conversationId) ?? []) sink(reply)
    return reply
  }

  /** The kept replies after `afterId` (all of them when undefined), oldest first. */
  since(conversationId: string, afterId: number | undefined): readonly Reply[] {
    const kept = this.#kept.get(conversationId) ?? []
    return afterId === undefined ? [...kept] : kept.filter((reply) => reply.id > afterId)
  }

  /** Opens a stream on the conversation; answers how to close it. */
  open(conversationId: string, sink: ReplySink): () => void {
    const sinks = this.#sinks.get(conversationId) ?? new Set()
    sinks.add(sink)
    this.#sinks.set(conversationId, sinks)
    return () => {
      sinks.delete(sink)
      if (sinks.size === 0 && this.#sinks.get(conversationId) === sinks) this.#sinks.delete(conversationId)
    }
  }

  /** How many streams are open, on every conversation. */
  get openStreams(): number {
    let count = 0
    for (const sinks of this.#sinks.values()) count += sinks.size
    return count
  }
}
