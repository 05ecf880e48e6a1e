import { and, eq } from 'drizzle-orm'
import type { Store } from './open.ts'
import { channelIdentities, principals } from './schema/index.ts'

/** Someone as one channel knows them. */
export interface IdentityKey {
  readonly channel: string
  readonly externalId: string
}

/** The principal an identity belongs to, if the bot has met it. */
export function principalIdOf(store: Store, identity: IdentityKey): string | undefined {
  return store.db
    .select({ id: channelIdentities.principalId })
    .from(channelIdentities)
    .where(
      and(
        eq(channelIdentities.channel, identity.channel),
        eq(channelIdentities.externalId, identity.externalId),
      ),
    )
    .get()?.id
}

/** The principal an identity belongs to, creating both on first contact. */
export function ensurePrincipal(store: Store, identity: IdentityKey): { id: string; created: boolean } {
  return store.db.transaction((tx) => {
    const known = tx
      .select({ id: channelIdentities.principalId })
      .from(channelIdentities)
      .where(
        and(
          eq(channelIdentities.channel, identity.channel),
          eq(channelIdentities.externalId, identity.externalId),
        ),
      )
      .get()
    if (known) return { id: known.id, created: false }
    const id = crypto.randomUUID()
    tx.insert(principals).values({ id }).run()
    tx.insert(channelIdentities)
      .values({ principalId: id, channel: identity.channel, externalId: identity.externalId })
      .run()
    return { id, created: true }
  })
}
