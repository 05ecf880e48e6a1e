import { StartupRefusal } from './refusal.ts'

/** Two folders holding a spore of the same name: which one runs would be an accident of order. */
export function refuseNameClashes(spores: readonly { readonly name: string; readonly dir: string }[]): void {
  const dirsByName = new Map<string, string[]>()
  for (const spore of spores) {
    const dirs = dirsByName.get(spore.name) ?? []
    dirs.push(spore.dir)
    dirsByName.set(spore.name, dirs)
  }
  const clashes = [...dirsByName].filter(([, dirs]) => dirs.length > 1)
  if (clashes.length === 0) return
  const lines = clashes.map(([name, dirs]) => `spore "${name}" is found in ${dirs.join(' and ')}`)
  throw new StartupRefusal(`${lines.join('; ')}; keep only one spore of each name`)
}
