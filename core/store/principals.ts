import { noteWrite } from './log-flush.ts'
import { lookupsOf } from './lookups.ts'
import type { Store } from './open.ts'

/** Someone as one channel knows them. */
export interface IdentityKey {
  readonly channel: string
  readonly externalId: string
}

/** The principal an identity belongs to, if the bot has met it. */
export function principalIdOf(store: Store, identity: IdentityKey): string | undefined {
  const { channel, externalId } = identity
  return lookupsOf(store.db).direct.owner.rows({ channel, externalId })[0]?.[0]
}

/** The principal an identity belongs to, creating both on first contact. */
export function ensurePrincipal(store: Store, identity: IdentityKey): { id: string; created: boolean } {
  return lookupsOf(store.db).writing(() => {
    const known = principalIdOf(store, identity)
    if (known !== undefined) return { id: known, created: false }
    return { id: addPrincipal(store, { identity, role: undefined }), created: true }
  })
}

export interface FirstContact {
  readonly identity: IdentityKey & { readonly displayName?: string | undefined }
  /** The role a newcomer receives, created without patterns if it does not exist yet. */
  readonly role: string
}

/**
 * The principal an identity belongs to; on first contact the principal, their identity (with the
 * name the channel reported) and their role are written in one transaction, so a newcomer costs one
 * commit and is never left half made.
 */
export function meetPrincipal(store: Store, contact: FirstContact): { id: string; created: boolean } {
  const known = principalIdOf(store, contact.identity)
  if (known !== undefined) return { id: known, created: false }
  return welcomePrincipal(store, contact)
}

/**
 * First contact for an identity the caller just read as unmet, in one write transaction that reads
 * again (another connection may have met them since); `alongside` is written in the same commit.
 */
export function welcomePrincipal(
  store: Store,
  contact: FirstContact,
  alongside?: () => void,
): { id: string; created: boolean } {
  noteWrite(store.db.$client)
  return lookupsOf(store.db).writing(() => {
    const raced = principalIdOf(store, contact.identity)
    const met =
      raced !== undefined
        ? { id: raced, created: false }
        : { id: addPrincipal(store, contact), created: true }
    // Last, so that a write of its own that fails takes the newcomer back with it.
    alongside?.()
    return met
  })
}

function addPrincipal(
  store: Store,
  contact: { identity: FirstContact['identity']; role: string | undefined },
) {
  const lookups = lookupsOf(store.db)
  // Time-ordered: a newcomer lands on the last page of every index keyed by principal.
  const id = Bun.randomUUIDv7()
  const { channel, externalId, displayName } = contact.identity
  lookups.addPrincipal.run({ principalId: id })
  lookups.addIdentity.run({ principalId: id, channel, externalId, displayName: displayName ?? null })
  if (contact.role !== undefined) {
    const roleId =
      lookups.roleId.get({ name: contact.role })?.id ?? lookups.addRole.get({ name: contact.role })!.id
    lookups.grant.run({ principalId: id, roleId })
  }
  return id
}

/**
 * Gives `principalId` the identity, unless it is someone's already: answers whose it is now. A
 * surface that signs a person in (the page) attaches its channel's identity this way, so a message
 * they send there is theirs, never a first-contact stranger's.
 */
export function attachIdentity(
  store: Store,
  options: { readonly principalId: string; readonly identity: FirstContact['identity'] },
): string {
  const { principalId, identity } = options
  const known = principalIdOf(store, identity)
  if (known !== undefined) return known
  return lookupsOf(store.db).writing(() => {
    const raced = principalIdOf(store, identity)
    if (raced !== undefined) return raced
    const { channel, externalId, displayName } = identity
    lookupsOf(store.db).addIdentity.run({
      principalId,
      channel,
      externalId,
      displayName: displayName ?? null,
    })
    return principalId
  })
}
