import { readManifest } from '../../germination/manifest-reading.ts'
import { loadIsolated } from '../../hosts/isolated-loading.ts'

/**
 * A spore's default export as the bot has it when the spore runs in a host (see hosted-spores.ts):
 * create() and the migrations answered from the host; the settings schema is the module's own.
 */
export async function hostedModule(dir: string, name: string, inline: unknown): Promise<unknown> {
  const { manifest, refusal } = await readManifest(dir)
  if (manifest === undefined) throw new Error(`spore ${name}: its manifest is refused: ${refusal}`)
  const loaded = await loadIsolated(dir, manifest, { spore: name, deadlineMs: 20_000 })
  if (!loaded.ok) throw new Error(`spore ${name} cannot be loaded in a host: ${loaded.reason}`)
  const hosted = loaded.module?.exported
  if (hosted === undefined) return inline
  const { configSchema } = (inline ?? {}) as { configSchema?: unknown }
  let told = false
  return {
    ...hosted,
    // Said once on standard error, so a run that asks can tell the suite reached the host.
    create: () => {
      if (!told) process.stderr.write(`hosted spore created: ${name}\n`)
      told = true
      return hosted.create()
    },
    ...(configSchema === undefined ? {} : { configSchema }),
  }
}
