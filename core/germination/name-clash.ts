import type { GerminationWarning } from './discovery.ts'

/**
 * Two folders holding a spore of the same name: the first found (in the order the spores folders
 * are configured) is kept, each other one is set aside with a warning that names both, so a clash
 * a new folder brings refuses that folder and never the bot.
 */
export function setNameClashesAside<T extends { readonly name: string; readonly dir: string }>(
  spores: readonly T[],
): { kept: T[]; warnings: GerminationWarning[] } {
  const first = new Map<string, T>()
  const kept: T[] = []
  const warnings: GerminationWarning[] = []
  for (const spore of spores) {
    const earlier = first.get(spore.name)
    if (earlier === undefined) {
      first.set(spore.name, spore)
      kept.push(spore)
    } else warnings.push({ kind: 'nameClash', folder: spore.dir, name: spore.name, kept: earlier.dir })
  }
  return { kept, warnings }
}
