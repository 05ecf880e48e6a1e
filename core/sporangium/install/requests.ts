// What a strain asks of the bot before it may run: its kind, the rhizas it requires and the
// mycelium scopes it requests. An operator reads it in the install's reason before enabling it.
import { alternativesOf, type Manifest, type PluginKind, type TranslatableRef } from '@mycelo/septum'
import { reasonPart } from '../../i18n/reason-words.ts'

const MYCELIUM = 'mycelium'

export interface StrainRequests {
  readonly kind: PluginKind
  /** An inhibitor that refuses all traffic it watches whenever it cannot judge. */
  readonly enforcing: boolean
  /** Each requirement on another rhiza: its alternatives, and whether it is optional. */
  readonly rhizas: readonly { readonly names: readonly string[]; readonly optional: boolean }[]
  readonly scopes: readonly string[]
}

export function requestsOf(manifest: Manifest): StrainRequests {
  const rhizas: { names: string[]; optional: boolean }[] = []
  const scopes = new Set<string>()
  for (const requirement of manifest.requires ?? []) {
    const alternatives = alternativesOf(requirement)
    for (const alternative of alternatives) for (const scope of alternative.scopes ?? []) scopes.add(scope)
    const names = alternatives.map((alternative) => alternative.rhiza).filter((name) => name !== MYCELIUM)
    if (names.length > 0) rhizas.push({ names, optional: requirement.optional === true })
  }
  const enforcing = manifest.kind === 'inhibitor' && manifest.enforcing
  return { kind: manifest.kind, enforcing, rhizas, scopes: [...scopes].sort() }
}

/**
 * Whether `next` asks for anything `before` did not: another kind, the power an enforcing
 * inhibitor has to close a channel, another rhiza, another scope.
 */
export function asksForMore(next: StrainRequests, before: StrainRequests): boolean {
  if (next.kind !== before.kind || (next.enforcing && !before.enforcing)) return true
  const rhizasBefore = new Set(before.rhizas.flatMap((rhiza) => rhiza.names))
  const scopesBefore = new Set(before.scopes)
  return (
    next.rhizas.some((rhiza) => rhiza.names.some((name) => !rhizasBefore.has(name))) ||
    next.scopes.some((scope) => !scopesBefore.has(scope))
  )
}

/**
 * The requests as catalogue words for an operator (`reason.asks` and its parts). Spore and scope
 * names stay as they are written; the alternatives of one requirement are joined by "or".
 */
export function requestsWords(requests: StrainRequests): TranslatableRef {
  const rhizas =
    requests.rhizas.length === 0
      ? reasonPart('requiresNone')
      : reasonPart('requiresRhizas', {
          count: requests.rhizas.length,
          list: requests.rhizas
            .map((rhiza) => `${rhiza.names.join(' or ')}${rhiza.optional ? ' (optional)' : ''}`)
            .join(', '),
        })
  const scopes =
    requests.scopes.length === 0
      ? reasonPart('scopesNone')
      : reasonPart('scopes', { count: requests.scopes.length, list: requests.scopes.join(', ') })
  const enforcing = requests.enforcing ? 'yes' : 'no'
  return reasonPart('asks', {
    kind: reasonPart(`kind${capitalised(requests.kind)}`),
    enforcing,
    rhizas,
    scopes,
  })
}

const capitalised = (word: string) => `${word[0]!.toUpperCase()}${word.slice(1)}`
