import type { ConversationInfo, ConversationKind, IncomingMessage } from '@mycelo/septum'
import { and, asc, eq, sql } from 'drizzle-orm'
import { RecentlyUsed } from '../identity/recently-used.ts'
import type { Store } from '../store/index.ts'
import { noteWrite } from '../store/log-flush.ts'
import { conversations } from '../store/schema/index.ts'

interface Known {
  kind: ConversationKind
  label: string | undefined
  locale: string | undefined
  /**
   * When last_seen was last written, on the monotonic clock (performance.now()): writes are spaced
   * so a busy chat is not a write per message, and only a write reads the wall clock.
   */
  written: number
}

/** How stale last_seen may get before it is written again. */
const LAST_SEEN_RESOLUTION_MS = 30_000
/** Conversations kept in memory: each DM is one, so the bound keeps a crowd from growing the heap. */
const CONVERSATIONS_KEPT = 10_000

/** The conversations the bot has seen: where, what kind, which language. Never what was said. */
export class ConversationBook {
  readonly #store: Store
  /** By channel, then the conversation's id on it. */
  readonly #known = new RecentlyUsed<string, string, Known>(CONVERSATIONS_KEPT)

  readonly #statements: ReturnType<typeof prepareStatements>

  constructor(store: Store) {
    this.#store = store
    this.#statements = prepareStatements(store)
  }

  /**
   * Notes the conversation as seen now, and answers its own stored locale, if one was chosen. `now`
   * is performance.now() as the caller read it for the message (the bus times each one anyway).
   */
  record(message: IncomingMessage, now = performance.now()): string | undefined {
    const { channel, conversationId } = message
    const known = this.#known.get(channel, conversationId)
    const kind: ConversationKind = message.group ? 'group' : 'dm'
    // A direct conversation is named for the person in it: the channel's name for them, else their id there.
    const label =
      message.group?.name ??
      (kind === 'dm' ? (message.sender.displayName ?? message.sender.externalId) : undefined)
    if (
      known &&
      known.kind === kind &&
      known.label === label &&
      now - known.written < LAST_SEEN_RESOLUTION_MS
    ) {
      return known.locale
    }
    // Not in memory, or stale: one upsert notes it and reads its locale back, with no read before.
    noteWrite(this.#store.db.$client)
    const seen = Date.now()
    const row = this.#statements.seen.get({ channel, conversationId, kind, label: label ?? null, seen })
    const locale = row?.locale ?? undefined
    this.#known.set(channel, conversationId, { kind, label, locale, written: now })
    return locale
  }

  /** The conversation's own stored locale, if one was chosen. */
  localeOf(channel: string, conversationId: string): string | undefined {
    return (this.#known.get(channel, conversationId) ?? this.#load(channel, conversationId))?.locale
  }

  /** Whether the bot has seen the conversation. */
  has(channel: string, conversationId: string): boolean {
    return (this.#known.get(channel, conversationId) ?? this.#load(channel, conversationId)) !== undefined
  }

  setLocale(channel: string, conversationId: string, locale: string | null): boolean {
    const changed = this.#store.db
      .update(conversations)
      .set({ locale })
      .where(and(eq(conversations.channel, channel), eq(conversations.conversationId, conversationId)))
      .returning({ channel: conversations.channel })
      .all()
    this.#known.delete(channel, conversationId)
    return changed.length > 0
  }

  list(): ConversationInfo[] {
    return this.#store.db
      .select()
      .from(conversations)
      .orderBy(asc(conversations.channel), asc(conversations.conversationId))
      .all()
      .map((row) => ({
        channel: row.channel,
        conversationId: row.conversationId,
        kind: row.kind,
        ...(row.label ? { label: row.label } : {}),
        ...(row.locale ? { locale: row.locale } : {}),
        firstSeen: row.firstSeen,
        lastSeen: row.lastSeen,
      }))
  }

  #load(channel: string, conversationId: string): Known | undefined {
    const row = this.#statements.one.get({ channel, conversationId })
    if (!row) return undefined
    const known: Known = {
      kind: row.kind,
      label: row.label ?? undefined,
      locale: row.locale ?? undefined,
      // The wall clock's age of the row, as a time on the monotonic one.
      written: performance.now() - (Date.now() - row.lastSeen.getTime()),
    }
    this.#known.set(channel, conversationId, known)
    return known
  }
}

/** The two statements every new or stale conversation runs, prepared once. */
function prepareStatements(store: Store) {
  const channel = sql.placeholder('channel')
  const conversationId = sql.placeholder('conversationId')
  const seen = sql`${sql.placeholder('seen')}`
  return {
    one: store.db
      .select()
      .from(conversations)
      .where(and(eq(conversations.channel, channel), eq(conversations.conversationId, conversationId)))
      .prepare(),
    seen: store.db
      .insert(conversations)
      .values({
        channel,
        conversationId,
        kind: sql.placeholder('kind'),
        label: sql.placeholder('label'),
        firstSeen: seen,
        lastSeen: seen,
      })
      .onConflictDoUpdate({
        target: [conversations.channel, conversations.conversationId],
        set: { kind: sql`excluded.kind`, label: sql`excluded.label`, lastSeen: sql`excluded.last_seen` },
      })
      .returning({ locale: conversations.locale })
      .prepare(),
  }
}
