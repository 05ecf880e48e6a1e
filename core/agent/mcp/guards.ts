import { MYCELIUM_SCOPES, type MyceliumScope } from '@mycelo/septum'
import { uncoveredPatterns } from '../../identity/patterns.ts'
import { scopeGuards } from '../../mycelium/guards.ts'
import type { CoreRuntime } from '../../rhizomorph/runtime.ts'
import type { Grant, Grants } from '../access.ts'
import { scopeVerbs } from '../bot-scopes.ts'

/** A sign-in code for the page is for a person asking in chat; an agent is never granted it. */
const WITHHELD_FROM_AGENTS: ReadonlySet<MyceliumScope> = new Set(['web.login'])

/** Each scope's read methods, by the labels its operations carry (labels do not change at run time). */
const readsOf = new WeakMap<CoreRuntime, Readonly<Record<string, ReadonlySet<string>>>>()

function readMethods(runtime: CoreRuntime) {
  let found = readsOf.get(runtime)
  if (found === undefined) {
    const verbs = scopeVerbs(runtime)
    found = Object.fromEntries(
      MYCELIUM_SCOPES.map((scope) => [
        scope,
        new Set(Object.keys(verbs[scope]).filter((method) => verbs[scope][method]!.access === 'read')),
      ]),
    )
    readsOf.set(runtime, found)
  }
  return found
}

/**
 * The grant a person's patterns give an agent on one scope, from the mycelium's guard table: write
 * when they hold the command of every method, read when they hold those of its guarded read methods.
 */
export function scopeGrant(runtime: CoreRuntime, scope: MyceliumScope, held: ReadonlySet<string>): Grant {
  if (WITHHELD_FROM_AGENTS.has(scope)) return 'none'
  const covers = (patterns: readonly string[]) => uncoveredPatterns(held, patterns).length === 0
  const methods = scopeGuards(scope)
  if (covers(methods.flatMap((entry) => entry.commands))) return 'write'
  // A read anyone may make (which languages exist) is no reason to grant a scope.
  const reads = methods.filter(
    (entry) => entry.commands.length > 0 && readMethods(runtime)[scope]?.has(entry.method),
  )
  if (reads.length > 0 && covers(reads.flatMap((entry) => entry.commands))) return 'read'
  return 'none'
}

/**
 * What `principalId` may let an agent do right now, for every module there is: a scope by the
 * commands guarding its methods, a spore's own operations only with all of that spore's commands.
 * Read fresh at each call, so a role taken away applies to the very next one; a person gone holds
 * nothing.
 */
export function grantsOf(runtime: CoreRuntime, principalId: string): Grants {
  const held = runtime.directory.load(principalId)?.patterns ?? new Set<string>()
  const grants: Record<string, Grant> = {}
  for (const scope of MYCELIUM_SCOPES) grants[scope] = scopeGrant(runtime, scope, held)
  for (const spore of runtime.germination.spores) {
    grants[spore.name] = uncoveredPatterns(held, [`${spore.name}.*`]).length === 0 ? 'write' : 'none'
  }
  return grants
}

/** Every module refused: what a key answers once it is revoked or its person is gone. */
export function nothingGranted(grants: Grants): Grants {
  return Object.fromEntries(Object.keys(grants).map((module) => [module, 'none' as const]))
}

/** Whether the grants let an agent do anything at all: a key that cannot is refused at the door. */
export function grantsAnything(grants: Grants): boolean {
  return Object.values(grants).some((grant) => grant !== 'none')
}
