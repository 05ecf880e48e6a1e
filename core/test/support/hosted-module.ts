import type { Manifest } from '@mycelo/septum'
import { readManifest } from '../../germination/manifest-reading.ts'
import type { SporeExport } from '../../germination/module-import.ts'
import type { Host } from '../../hosts/host.ts'
import { loadIsolated } from '../../hosts/isolated-loading.ts'

/** A spore's module loaded in a host of its own, and that host. */
interface Hosted {
  readonly exported: SporeExport
  readonly host: Host
}

async function loadHosted(dir: string, manifest: Manifest, name: string): Promise<Hosted | undefined> {
  const loaded = await loadIsolated(dir, manifest, { spore: name, deadlineMs: 20_000 })
  if (!loaded.ok) throw new Error(`spore ${name} cannot be loaded in a host: ${loaded.reason}`)
  const { module } = loaded
  if (module?.host === undefined) return undefined
  return { exported: module.exported, host: module.host }
}

/**
 * A spore's default export as the bot has it when the spore runs in a host (see hosted-spores.ts):
 * create() and the migrations answered from the host; the settings schema is the module's own.
 * Every create() is answered by a host that runs: a bot a suite stopped ends the hosts it knew of,
 * and the next test's create() is then answered by a fresh one, as a germination would load it.
 */
export async function hostedModule(dir: string, name: string, inline: unknown): Promise<unknown> {
  const { manifest, refusal } = await readManifest(dir)
  if (manifest === undefined) throw new Error(`spore ${name}: its manifest is refused: ${refusal}`)
  let hosted = await loadHosted(dir, manifest, name)
  if (hosted === undefined) return inline
  const { configSchema } = (inline ?? {}) as { configSchema?: unknown }
  return {
    ...hosted.exported,
    create: async () => {
      if (hosted === undefined || hosted.host.down !== undefined)
        hosted = await loadHosted(dir, manifest, name)
      if (hosted === undefined) throw new Error(`spore ${name} has no module any more`)
      return hosted.exported.create()
    },
    ...(configSchema === undefined ? {} : { configSchema }),
  }
}
