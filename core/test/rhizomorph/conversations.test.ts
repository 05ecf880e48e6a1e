// The conversation book over a real SQLite file: last_seen is written when a conversation is new or
// its record is stale, spaced on the monotonic clock the message path times messages with, and the
// time written is the wall clock's.
import { afterAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import type { IncomingMessage } from '@mycelo/septum'
import { ConversationBook } from '../../rhizomorph/conversations.ts'
import { openStore } from '../../store/index.ts'
import { scratchFolder } from '../store/scratch.ts'

const scratch = scratchFolder('conversations')
afterAll(() => scratch.remove())

const message = (conversationId: string): IncomingMessage => ({
  channel: 'chat',
  conversationId,
  messageId: 'm1',
  group: { id: conversationId, name: 'Films' },
  sender: { channel: 'chat', externalId: 'ada' },
  text: 'hello',
  attachments: [],
  raw: null,
  receivedAt: new Date(),
})

describe('the conversation book', () => {
  const store = openStore({ path: join(scratch.path, 'book.db') })
  afterAll(() => store.close())
  const lastSeen = (conversationId: string) =>
    store.db.$client
      .query<{ last_seen: number }, [string]>('SELECT last_seen FROM conversations WHERE conversation_id = ?')
      .get(conversationId)?.last_seen

  it('writes last_seen at most once per 30 s of the monotonic clock, with the wall time of the write', () => {
    const book = new ConversationBook(store)
    const start = performance.now()
    const before = Date.now()
    book.record(message('g1'), start)
    const first = lastSeen('g1')!
    expect(first).toBeGreaterThanOrEqual(before)
    // Moments later by the clock the path passes: nothing written, so the row keeps its time.
    store.db.$client.run("UPDATE conversations SET last_seen = 1 WHERE conversation_id = 'g1'")
    book.record(message('g1'), start + 29_000)
    expect(lastSeen('g1')).toBe(1)
    // Past the spacing: written again, with the wall clock's time, not the monotonic one.
    book.record(message('g1'), start + 30_001)
    expect(lastSeen('g1')).toBeGreaterThanOrEqual(before)
  })

  it('spaces the writes of a conversation read from the store by the age of its row', () => {
    store.db.$client.run(
      "INSERT INTO conversations (channel, conversation_id, kind, label, locale, first_seen, last_seen) VALUES ('chat', 'g2', 'group', 'Films', 'fr', 1, ?)",
      [Date.now()],
    )
    const book = new ConversationBook(store)
    // Read (and remembered) through its locale, as a push does: its row was written just now.
    expect(book.localeOf('chat', 'g2')).toBe('fr')
    store.db.$client.run("UPDATE conversations SET last_seen = 1 WHERE conversation_id = 'g2'")
    expect(book.record(message('g2'))).toBe('fr')
    expect(lastSeen('g2')).toBe(1)
  })
})
