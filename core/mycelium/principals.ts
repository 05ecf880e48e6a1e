import type { PrincipalsManage, PrincipalsRead } from '@mycelo/septum'
import { audited } from '../audit/audited.ts'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import { principalIdOf, type Store } from '../store/index.ts'
import { listPeople, markReviewed, personOf, setDisplayName } from '../store/people.ts'
import { DONE, refused } from './outcome.ts'

/** principals.read: asking is the whole purpose, so "not found" is null rather than a refusal. */
export function principalsRead(runtime: CoreRuntime): PrincipalsRead {
  const { store } = runtime
  return {
    async listPrincipals() {
      return listPeople(store)
    },
    async getPrincipal(id) {
      return personOf(store, id) ?? null
    },
    async findByIdentity(channel, externalId) {
      const id = principalIdOf(store, { channel, externalId })
      return id === undefined ? null : (personOf(store, id) ?? null)
    },
  }
}

/** principals.manage: every write clears the directory, so the next message sees it. */
export function principalsManage(runtime: CoreRuntime): PrincipalsManage {
  const { store, directory } = runtime
  return audited(runtime, 'principals.manage', {
    async markReviewed(id) {
      if (!markReviewed(store, id)) return refused('principal_unknown', { principal: id })
      directory.invalidate()
      return DONE
    },
    async setDisplayName(id, displayName) {
      // An empty name clears the operator's choice, so the name a channel reported shows again.
      const chosen = displayName.trim()
      if (!setDisplayName(store, id, chosen === '' ? null : chosen)) {
        return refused('principal_unknown', { principal: id })
      }
      directory.invalidate()
      return DONE
    },
  })
}

/**
 * The principal an operator names, at the CLI or in an imported file: an id as it stands, or
 * `channel:userId` for the person known there. An unknown name is passed on, for the refusal to name.
 */
export function principalNamed(store: Store, word: string): string {
  const colon = word.indexOf(':')
  if (colon <= 0) return word
  return principalIdOf(store, { channel: word.slice(0, colon), externalId: word.slice(colon + 1) }) ?? word
}
