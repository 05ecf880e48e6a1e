// A spore publisher for tests: an Ed25519 key pair and the signature of a strain, made the way the
// publishing tool does, through WebCrypto.
import { createHash } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { PluginKind, SporangiumIndex, StrainEntry } from '@mycelo/septum'
import { strainStatement } from '@mycelo/septum'

export interface Publisher {
  /** `ed25519:<base64 of the raw public key>`, as a source pins it. */
  readonly key: string
  /** The base64 signature of the strain statement for these bytes. */
  sign(spore: string, strain: string, bytes: Uint8Array): Promise<string>
}

export async function newPublisher(): Promise<Publisher> {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, [
    'sign',
    'verify',
  ])) as unknown as CryptoKeyPair
  const raw = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey))
  return {
    key: `ed25519:${Buffer.from(raw).toString('base64')}`,
    async sign(spore, strain, bytes) {
      const statement = new Uint8Array(strainStatement(spore, strain, sha256Of(bytes)))
      const signature = await crypto.subtle.sign({ name: 'Ed25519' }, pair.privateKey, statement)
      return Buffer.from(signature).toString('base64')
    },
  }
}

export function sha256Of(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}

export interface PublishedStrain {
  readonly bytes: Uint8Array
  /** Defaults to ^1.0. */
  readonly septum?: string
  /** Signs it with the sporangium's publisher, when it has one; true by default. */
  readonly signed?: boolean
  /** Overrides what the index says about it (a lying size or digest, another signature). */
  readonly entry?: Partial<StrainEntry>
}

export interface SporangiumContents {
  readonly name?: string
  /** Named in the index as its publisher, and signs its strains. */
  readonly publisher?: Publisher
  /** Named in the index instead of the signing publisher's key (a swapped key). */
  readonly announcedKey?: string
  readonly spores: Readonly<
    Record<
      string,
      {
        readonly kind?: PluginKind
        readonly description?: string
        readonly strains: Readonly<Record<string, PublishedStrain>>
      }
    >
  >
}

/** Writes `index.json` and every strain's archive (`<spore>-<strain>.tgz`) into `folder`. */
export async function writeSporangium(
  folder: string,
  contents: SporangiumContents,
): Promise<SporangiumIndex> {
  await mkdir(folder, { recursive: true })
  const spores: SporangiumIndex['spores'] = {}
  for (const [name, spore] of Object.entries(contents.spores)) {
    const strains: Record<string, StrainEntry> = {}
    for (const [strain, published] of Object.entries(spore.strains)) {
      const archive = `${name}-${strain}.tgz`
      await writeFile(join(folder, archive), published.bytes)
      const signature =
        contents.publisher && published.signed !== false
          ? await contents.publisher.sign(name, strain, published.bytes)
          : undefined
      strains[strain] = {
        archive,
        size: published.bytes.byteLength,
        sha256: sha256Of(published.bytes),
        septum: published.septum ?? '^1.0',
        published: '2026-11-30T12:00:00Z',
        ...(signature ? { signature } : {}),
        ...published.entry,
      }
    }
    spores[name] = {
      kind: spore.kind ?? 'enzyme',
      ...(spore.description ? { description: spore.description } : {}),
      strains,
    }
  }
  const key = contents.announcedKey ?? contents.publisher?.key
  const index: SporangiumIndex = {
    format: 1,
    name: contents.name ?? 'test sporangium',
    ...(key ? { publisher: { key } } : {}),
    spores,
  }
  await writeFile(join(folder, 'index.json'), JSON.stringify(index, null, 2))
  return index
}
