import { uncoveredPatterns } from '../identity/patterns.ts'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import { OWNER_ROLE, patternsOf, roleNamesOf } from '../store/index.ts'
import { patternsHeldBy, type RoleRecord } from '../store/role-admin.ts'
import { actingPrincipal, currentActor } from './actor.ts'
import { type Refusal, refused } from './outcome.ts'

/**
 * The role ceiling, the one place every surface's role change is checked: a person hands out,
 * takes back, creates, edits or deletes only roles their own roles already cover. The operator at
 * the CLI is not capped, and a spore acting on its own is bounded by its granted scopes alone.
 */
export class RoleCeiling {
  readonly #runtime: CoreRuntime

  constructor(runtime: CoreRuntime) {
    this.#runtime = runtime
  }

  /** Whether the acting person's roles cover every one of `patterns`. */
  covers(patterns: readonly string[]): Refusal | undefined {
    const acting = this.#acting()
    if (acting === undefined) return undefined
    const missing = uncoveredPatterns(acting.patterns, patterns)
    if (missing.length === 0) return undefined
    return refused('patterns_uncovered', { patterns: missing.join(', '), count: missing.length })
  }

  /** Whether the acting person may grant or revoke this role; the owner role only by an owner. */
  wields(role: RoleRecord): Refusal | undefined {
    const acting = this.#acting()
    if (acting === undefined) return undefined
    // `*` covers every pattern, so without this a `*` role could hand out the owner role itself.
    if (isOwnerRole(role)) {
      return acting.roles.includes(OWNER_ROLE) ? undefined : refused('owner_only', { role: role.name })
    }
    return this.covers(patternsOf(this.#runtime.store, role.name))
  }

  /** Whether the acting person may take roles from `principalId`: not from someone who holds more. */
  outranks(principalId: string): Refusal | undefined {
    const acting = this.#acting()
    if (acting === undefined) return undefined
    const { store } = this.#runtime
    // The owner role is more than `*`, as in wields(): only an owner takes roles from an owner.
    if (roleNamesOf(store, principalId).includes(OWNER_ROLE) && !acting.roles.includes(OWNER_ROLE)) {
      return refused('holder_owner', { principal: principalId, role: OWNER_ROLE })
    }
    const missing = uncoveredPatterns(acting.patterns, patternsHeldBy(store, principalId))
    if (missing.length === 0) return undefined
    return refused('holder_above', { principal: principalId, patterns: missing.join(', ') })
  }

  /** The person acting, read fresh from the store; undefined when no person acts. */
  #acting(): { patterns: ReadonlySet<string>; roles: readonly string[] } | undefined {
    const principalId = actingPrincipal(currentActor())
    if (principalId === undefined) return undefined
    const snapshot = this.#runtime.directory.load(principalId)
    // A person deleted mid-command holds nothing.
    return { patterns: snapshot?.patterns ?? new Set(), roles: snapshot?.principal.roles ?? [] }
  }
}

export function isOwnerRole(role: RoleRecord): boolean {
  return role.builtin && role.name === OWNER_ROLE
}
