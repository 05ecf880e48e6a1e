import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import { attachIdentity } from '../store/principals.ts'

/**
 * Makes the identity (`hypha`, principal id) the session principal's own before a hypha's operator
 * route runs, so what the page sends through that hypha is authorised exactly as that person (roles,
 * locale, admission) and never meets the bot as a first-contact stranger. False when the identity
 * already belongs to someone else: the route must not run then.
 */
export function bindSessionIdentity(
  runtime: CoreRuntime,
  options: { readonly hypha: string; readonly principalId: string },
): boolean {
  const { hypha, principalId } = options
  const person = runtime.directory.load(principalId)
  if (person === undefined) return false
  const identity = { channel: hypha, externalId: principalId, displayName: person.principal.displayName }
  const holder = attachIdentity(runtime.store, { principalId, identity })
  if (holder !== principalId) {
    runtime.logger.warn('a page identity belongs to someone else; the route was refused', {
      spore: hypha,
      principal: principalId,
      holder,
    })
    return false
  }
  // The principal's identities changed: the next message reads them afresh.
  if (
    !person.principal.identities.some((known) => known.channel === hypha && known.externalId === principalId)
  ) {
    runtime.directory.invalidate()
  }
  return true
}
