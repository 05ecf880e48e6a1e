// A bot's folders and database for install tests: a shipped spores folder holding the real `help`,
// the installs folder and staging (both made, as a bot's first start leaves them), a real SQLite
// file beside them, and a way to photograph the whole tree to prove a refusal changed nothing.
import { createHash } from 'node:crypto'
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, relative } from 'node:path'
import type { Logger } from '@mycelo/septum'
import { create } from 'tar'
import { stringify } from 'yaml'
import { loadConfig, type MyceloConfig } from '../../../boot/config.ts'
import type { InstallationDeps, StrainArchive } from '../../../sporangium/installation.ts'
import { diskFiles, type StagingFiles } from '../../../sporangium/staging/files.ts'
import { createPluginStore, openStore, type PluginStore, type Store } from '../../../store/index.ts'
import { sources } from '../../../store/schema/index.ts'
import { writeSpore } from '../../boot/process.ts'
import { scratchFolder } from '../../store/scratch.ts'
import { realSpore } from '../../support/real-spores.ts'

export const SOURCE = 'test-sporangium'

export interface Ground {
  readonly root: string
  readonly config: MyceloConfig
  readonly store: Store
  readonly plugins: PluginStore
  readonly installs: string
  readonly staging: string
  readonly previous: string
  /** What an install is given; `files` replaces the disk, to fail or record writes. */
  deps(files?: StagingFiles): InstallationDeps
  /** Every folder, file (by digest) and link under the root, the database and the packing folder aside. */
  snapshot(): Map<string, string>
  remove(): void
}

export interface GroundOptions {
  /** mycelo.yaml's sporangia.limits. */
  readonly limits?: Record<string, number>
}

const silent: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent }

export function makeGround(options: GroundOptions = {}): Ground {
  const scratch = scratchFolder('sporangium')
  const root = scratch.path
  writeSpore(join(root, 'spores'), 'help', realSpore('help'))
  mkdirSync(join(root, 'data', 'spores'), { recursive: true })
  mkdirSync(join(root, 'data', 'staging'), { recursive: true })
  mkdirSync(join(root, 'db'))
  const file = join(root, 'mycelo.yaml')
  const sporangia = { installs: 'data/spores', staging: 'data/staging', limits: options.limits ?? {} }
  writeFileSync(file, stringify({ spores: ['spores', 'data/spores'], database: 'db/mycelo.db', sporangia }))
  const config = loadConfig({ path: file, env: {} })
  const store = openStore({ path: config.database })
  store.db
    .insert(sources)
    .values({ id: SOURCE, label: 'Test', url: 'https://example.org', trust: 'third-party' })
    .run()
  const plugins = createPluginStore(store)
  return {
    root,
    config,
    store,
    plugins,
    installs: config.sporangia.installs,
    staging: config.sporangia.staging,
    previous: join(root, 'data', 'previous'),
    deps: (files) => ({ store, plugins, config, logger: silent, ...(files ? { files } : {}) }),
    snapshot: () => snapshotOf(root, new Set([join(root, 'db'), join(root, 'work')])),
    remove() {
      store.close()
      scratch.remove()
    },
  }
}

function snapshotOf(root: string, skip: ReadonlySet<string>): Map<string, string> {
  const found = new Map<string, string>()
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name)
      if (skip.has(path)) continue
      const stat = lstatSync(path)
      const key = relative(root, path)
      if (stat.isSymbolicLink()) found.set(key, `link ${readlinkSync(path)}`)
      else if (stat.isDirectory()) {
        found.set(key, 'folder')
        walk(path)
      } else found.set(key, `file ${createHash('sha256').update(readFileSync(path)).digest('hex')}`)
    }
  }
  walk(root)
  return found
}

/** The disk, with every path it is asked to write recorded. */
export function recordingFiles(
  inner: StagingFiles = diskFiles,
): StagingFiles & { readonly written: string[] } {
  const written: string[] = []
  return {
    written,
    makeFolder: (path) => {
      written.push(path)
      return inner.makeFolder(path)
    },
    create: (path) => {
      written.push(path)
      return inner.create(path)
    },
  }
}

/** A valid manifest for a small enzyme that answers with a catalogue key and runs no code. */
export function probeManifest(name = 'probe', extra: Record<string, unknown> = {}): string {
  return stringify({
    kind: 'enzyme',
    name,
    septum: '^1.0',
    commands: [{ name: 'hi', description: 'command.hi', respond: 'hi' }],
    ...extra,
  })
}

/**
 * The probe enzyme packed at a strain from `<folder>/packing/<strain>`, its reply naming the strain,
 * so a test can tell which strain answers; `extra` goes into its manifest.
 */
export function probeArchive(folder: string, strain: string, extra: Record<string, unknown> = {}) {
  return pack(
    writeSpore(join(folder, 'packing', strain), 'probe', {
      'spore.yaml': probeManifest('probe', extra),
      'translations/en.yaml': `command:\n  hi: Says hi\nhi: probe ${strain}\n`,
    }),
  )
}

/** A spore folder written from text, somewhere outside every folder the bot looks at. */
export function sporeFolder(ground: Ground, name: string, files: Record<string, string>): string {
  return writeSpore(join(ground.root, 'work', `${name}-${Math.random().toString(36).slice(2)}`), name, files)
}

/** Packs a folder with node-tar: under its own name (`top`) or with its files at the root. */
export async function pack(dir: string, layout: 'top' | 'root' = 'top'): Promise<Uint8Array> {
  const stream =
    layout === 'top'
      ? create({ gzip: true, portable: true, cwd: dirname(dir) }, [basename(dir)])
      : create({ gzip: true, portable: true, cwd: dir }, readdirSync(dir))
  const chunks: Uint8Array[] = []
  for await (const chunk of stream as AsyncIterable<Uint8Array>) chunks.push(chunk)
  return new Uint8Array(Buffer.concat(chunks))
}

export function archiveOf(spore: string, bytes: Uint8Array, strain = '1.0.0'): StrainArchive {
  const sha256 = createHash('sha256').update(bytes).digest('hex')
  return { spore, strain, source: SOURCE, bytes, sha256 }
}
