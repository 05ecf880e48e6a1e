import type { Inhibitor, InhibitorContext } from '@mycelo/septum'
import type { GerminatedSpore } from '../germination/index.ts'
import type { AdmissionMember } from './chain.ts'

/** What decides a member's entry: when none of it changed, the entry stands. */
interface Seen {
  readonly state: GerminatedSpore['state']
  readonly reason: string | undefined
  readonly instance: unknown
  readonly restarting: boolean
}

/**
 * The enabled inhibitors as admission members, rebuilt only when one of them changed state,
 * reason or instance (a failed start, a restart): a message reads the same list as the last one,
 * so the chain sorts it once rather than at every message.
 */
export class InhibitorRoster {
  #spores: readonly GerminatedSpore[]
  readonly #contextOf: (spore: GerminatedSpore) => InhibitorContext
  readonly #restarting: (name: string) => boolean
  #seen: readonly Seen[] = []
  #members: readonly AdmissionMember[] = []

  /** `restarting` names a spore being stopped or started in process: not usable until it has. */
  constructor(
    spores: readonly GerminatedSpore[],
    contextOf: (spore: GerminatedSpore) => InhibitorContext,
    restarting: (name: string) => boolean = () => false,
  ) {
    this.#spores = spores.filter((spore) => spore.kind === 'inhibitor')
    this.#contextOf = contextOf
    this.#restarting = restarting
  }

  /** Takes the spores again after one was swapped in or out while running. */
  refresh(spores: readonly GerminatedSpore[]): void {
    this.#spores = spores.filter((spore) => spore.kind === 'inhibitor')
  }

  /** The members as they stand now; the same list as last time when nothing changed. */
  readonly current = (): readonly AdmissionMember[] => {
    if (this.#unchanged()) return this.#members
    this.#seen = this.#spores.map(({ name, state, reason, instance }) => ({
      state,
      reason,
      instance,
      restarting: this.#restarting(name),
    }))
    this.#members = this.#spores.flatMap((spore) => memberOf(spore, this.#contextOf, this.#restarting))
    return this.#members
  }

  #unchanged(): boolean {
    if (this.#seen.length !== this.#spores.length) return false
    for (let index = 0; index < this.#spores.length; index++) {
      const spore = this.#spores[index]!
      const seen = this.#seen[index]!
      if (spore.state !== seen.state || spore.reason !== seen.reason || spore.instance !== seen.instance) {
        return false
      }
      if (this.#restarting(spore.name) !== seen.restarting) return false
    }
    return true
  }
}

/** A live inhibitor judges, a dormant one is unusable (which matters if enforcing), a disabled one is absent. */
function memberOf(
  spore: GerminatedSpore,
  contextOf: (spore: GerminatedSpore) => InhibitorContext,
  restarting: (name: string) => boolean,
): AdmissionMember[] {
  if (spore.state === 'disabled') return []
  // One being started again is not usable until it has: an enforcing one refuses meanwhile.
  if (restarting(spore.name)) {
    return [{ name: spore.name, enforcing: spore.enforcing, usable: false, reason: 'restarting' }]
  }
  if (spore.state === 'live') {
    return [
      {
        name: spore.name,
        enforcing: spore.enforcing,
        usable: true,
        inhibitor: spore.instance as Inhibitor,
        context: contextOf(spore),
      },
    ]
  }
  return [{ name: spore.name, enforcing: spore.enforcing, usable: false, reason: spore.reason ?? 'dormant' }]
}
