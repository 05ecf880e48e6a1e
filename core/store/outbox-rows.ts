import type { Statement } from 'bun:sqlite'
import type { StoreDatabase } from './open.ts'

/** One message the core accepted and no channel has confirmed yet. */
export interface OutboxRow {
  readonly id: number
  readonly channel: string
  readonly conversationId: string
  readonly deliveryId: string
  /** The OutgoingContent as JSON (see core/outbox/content-codec.ts). */
  readonly content: string
  /** Milliseconds since the epoch. */
  readonly acceptedAt: number
}

type Values = [number, string, string, string, string, number]

/**
 * The outbox table's three statements, prepared once: on the send path a message costs one insert
 * before it is accepted and one delete once its channel took it, each a commit of its own.
 */
export class OutboxRows {
  readonly #insert: Statement
  readonly #delete: Statement
  readonly #all: Statement<Values, []>

  constructor(db: StoreDatabase) {
    const sqlite = db.$client
    this.#insert = sqlite.prepare(
      'INSERT INTO outbox (channel, conversation_id, delivery_id, content, accepted_at) VALUES (?, ?, ?, ?, ?)',
    )
    this.#delete = sqlite.prepare('DELETE FROM outbox WHERE id = ?')
    this.#all = sqlite.prepare<Values, []>(
      'SELECT id, channel, conversation_id, delivery_id, content, accepted_at FROM outbox ORDER BY id',
    )
  }

  /** Records a message; answers its id, which orders it after every message recorded before. */
  add(row: Omit<OutboxRow, 'id'>): number {
    const result = this.#insert.run(
      row.channel,
      row.conversationId,
      row.deliveryId,
      row.content,
      row.acceptedAt,
    )
    return Number(result.lastInsertRowid)
  }

  remove(id: number): void {
    this.#delete.run(id)
  }

  /** Every waiting message, in the order it was accepted. */
  all(): OutboxRow[] {
    return (this.#all.values() as unknown as Values[]).map(
      ([id, channel, conversationId, deliveryId, content, acceptedAt]) => ({
        id,
        channel,
        conversationId,
        deliveryId,
        content,
        acceptedAt,
      }),
    )
  }
}
