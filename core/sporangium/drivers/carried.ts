// The strains an official source carries in the checkout itself (sporangia/official/<spore>):
// packed here exactly as the publishing tool packs them, then offered beside what the source's
// address offers. Their bytes go through the same checks, staging and install records as a
// download; they need no signature, coming from the same checkout as the core that installs them.
import { createHash } from 'node:crypto'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { OutcomeOf } from '@mycelo/septum'
import { refused } from '../../mycelium/outcome.ts'
import type { Offering, SporangiumDriver, SporeOffer, StrainOffer } from './driver.ts'

interface CarriedStrain {
  readonly offer: SporeOffer
  readonly bytes: Uint8Array
}

/** Packing is deterministic: a folder is packed once per process, not at every listing. */
const packed = new Map<string, Promise<CarriedStrain | undefined>>()

/** The publishing tool (tar, zlib, the bundler) is loaded when a listing first packs a folder, not at start. */
function packer() {
  return Promise.all([
    import('../../../sporangia/tool/spore-folder.ts'),
    import('../../../sporangia/tool/bundle.ts'),
    import('../../../sporangia/tool/strain-archive.ts'),
  ])
}

async function packFolder(dir: string): Promise<CarriedStrain | undefined> {
  const [{ readSporeFolder }, { bundleModule }, { buildArchive }] = await packer()
  const folder = await readSporeFolder(dir, undefined)
  if (!folder.ok) return undefined
  const { manifest, strain } = folder.value
  const bundle = await bundleModule(dir, manifest)
  if (!bundle.ok) return undefined
  const archive = await buildArchive({ dir, name: manifest.name, bundle: bundle.value })
  if (!archive.ok) return undefined
  const bytes = archive.value
  const offer: StrainOffer = {
    strain,
    septum: manifest.septum,
    size: bytes.byteLength,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    archive: `carried:${manifest.name}`,
    carried: true,
  }
  const description = folder.value.description?.split('\n')[0]
  return {
    offer: {
      name: manifest.name,
      kind: manifest.kind,
      ...(description ? { description } : {}),
      ...(folder.value.descriptions ? { descriptions: folder.value.descriptions } : {}),
      strains: [offer],
    },
    bytes,
  }
}

/** Every spore folder (one holding a spore.yaml) under `folder`, packed. */
export async function carriedStrains(folder: string): Promise<CarriedStrain[]> {
  if (!existsSync(folder)) return []
  const dirs = readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(folder, entry.name, 'spore.yaml')))
    .map((entry) => join(folder, entry.name))
    .sort()
  const strains = await Promise.all(
    dirs.map((dir) => {
      let pending = packed.get(dir)
      if (pending === undefined) {
        pending = packFolder(dir)
        packed.set(dir, pending)
      }
      return pending
    }),
  )
  return strains.filter((strain) => strain !== undefined)
}

/**
 * The source's own driver with the carried strains beside it. What its address offers is read
 * when it answers; when it cannot be reached, the carried strains alone are offered. A strain
 * offered by both is taken from the checkout; a newer one from the address is downloaded and
 * proven as any other (signature included, once a key is pinned).
 */
export function withCarried(remote: SporangiumDriver, folder: string, sourceId: string): SporangiumDriver {
  const carried = () => carriedStrains(folder)
  return {
    async offering(): Promise<OutcomeOf<Offering>> {
      const [own, far] = await Promise.all([carried(), remote.offering()])
      if (own.length === 0 && !far.ok) return far
      const spores = new Map<string, SporeOffer>()
      for (const { offer } of own) spores.set(offer.name, offer)
      const farSpores = far.ok ? far.value.spores : []
      for (const spore of farSpores) {
        const mine = spores.get(spore.name)
        const strains = [
          ...(mine?.strains ?? []),
          ...spore.strains.filter((s) => !mine?.strains.some((m) => m.strain === s.strain)),
        ]
        spores.set(spore.name, { ...(mine ?? spore), strains })
      }
      const publisherKey = far.ok ? far.value.publisherKey : undefined
      return {
        ok: true,
        value: { ...(publisherKey ? { publisherKey } : {}), spores: [...spores.values()] },
      }
    },
    async archive(offer, onProgress) {
      if (!offer.carried) return remote.archive(offer, onProgress)
      const strain = (await carried()).find((s) => s.offer.strains[0]?.archive === offer.archive)
      if (strain === undefined) return refused('sporangium_index_invalid', { source: sourceId })
      onProgress?.(strain.bytes.byteLength, strain.bytes.byteLength)
      return { ok: true, value: { bytes: strain.bytes, response: new Response(strain.bytes) } }
    },
    async signature(offer) {
      if (offer.carried) return { ok: true, value: undefined }
      return remote.signature(offer)
    },
  }
}
