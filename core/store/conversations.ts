import { and, eq } from 'drizzle-orm'
import type { Store } from './open.ts'
import { conversations } from './schema/index.ts'

/** A conversation's own stored locale, or undefined when none was chosen or it was never seen. */
export function conversationLocale(
  store: Store,
  channel: string,
  conversationId: string,
): string | undefined {
  const row = store.db
    .select({ locale: conversations.locale })
    .from(conversations)
    .where(and(eq(conversations.channel, channel), eq(conversations.conversationId, conversationId)))
    .get()
  return row?.locale ?? undefined
}
