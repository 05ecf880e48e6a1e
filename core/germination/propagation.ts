import { coreReason } from '../i18n/reason-words.ts'
import type { GerminatedSpore } from './ports.ts'

/**
 * Makes dormant every live spore that mandatorily requires a spore that is not live. `order` lists
 * required rhizas before their dependants, so one pass carries it transitively. Answers the spores
 * it demoted.
 */
export function propagateDormancy(
  order: readonly GerminatedSpore[],
  byName: ReadonlyMap<string, GerminatedSpore>,
): GerminatedSpore[] {
  const demoted: GerminatedSpore[] = []
  for (const spore of order) {
    if (spore.state !== 'live') continue
    const blocked = spore.mandatory.find((name) => byName.get(name)?.state !== 'live')
    if (blocked === undefined) continue
    spore.state = 'dormant'
    spore.reason = coreReason('requiresNotLive', {
      rhiza: blocked,
      state: byName.get(blocked)?.state ?? 'absent',
    })
    demoted.push(spore)
  }
  return demoted
}
