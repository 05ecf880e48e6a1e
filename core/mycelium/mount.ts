import {
  alternativesOf,
  type Manifest,
  MYCELIUM,
  type MyceliumScope,
  type MyceliumScopeMap,
  SCOPE_METHODS,
} from '@mycelo/septum'
import { asSpore } from '../audit/audited.ts'
import { WRITE_METHODS } from '../audit/writes.ts'
import { currentActor } from './actor.ts'

/** The scopes this core serves: every one septum names. */
export type ServedScope = MyceliumScope

/** One implementation per served scope, each exactly its septum interface. */
export type ScopeGroups = { readonly [S in ServedScope]: MyceliumScopeMap[S] }

/** Every scope granted on the manifest's mycelium requirements, in declaration order. */
export function grantedScopes(manifest: Manifest | undefined): MyceliumScope[] {
  const granted = new Set<MyceliumScope>()
  for (const requirement of manifest?.requires ?? []) {
    for (const alternative of alternativesOf(requirement)) {
      if (alternative.rhiza !== MYCELIUM) continue
      for (const scope of alternative.scopes ?? []) granted.add(scope)
    }
  }
  return [...granted]
}

/**
 * The object a spore's `ctx.rhiza('mycelium')` answers: the methods SCOPE_METHODS lists for each
 * granted scope and nothing else, so an ungranted scope's methods are absent rather than refusing.
 */
export function mountSurface(groups: ScopeGroups, scopes: readonly MyceliumScope[], spore?: string): object {
  const surface: Record<string, unknown> = {}
  for (const scope of scopes) {
    if (!isServed(groups, scope)) continue
    const group = groups[scope] as unknown as Readonly<Record<string, unknown>>
    const writes = WRITE_METHODS[scope] ?? []
    for (const method of SCOPE_METHODS[scope]) {
      const own = group[method]
      // A write made outside any command is the spore's own: the audit names it.
      surface[method] =
        spore !== undefined && writes.includes(method) && typeof own === 'function'
          ? (...args: unknown[]) =>
              currentActor() === undefined ? asSpore(spore, () => own(...args)) : own(...args)
          : own
    }
  }
  return Object.freeze(surface)
}

function isServed(groups: ScopeGroups, scope: MyceliumScope): scope is ServedScope {
  return Object.hasOwn(groups, scope)
}
