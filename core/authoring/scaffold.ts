// `bun run mycelo new <kind> <name>`: writes a working spore of that kind, tested and conforming.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { PLUGIN_KINDS, type PluginKind, parseManifest, SEPTUM_VERSION } from '@mycelo/septum'
import { parse } from 'yaml'
import { type Files, packageFiles, readme, type Scaffolding, typeNameOf } from './templates/common.ts'
import { enzymeFiles } from './templates/enzyme.ts'
import { hyphaFiles } from './templates/hypha.ts'
import { inhibitorFiles } from './templates/inhibitor.ts'
import { rhizaFiles } from './templates/rhiza.ts'

const BY_KIND: Readonly<Record<PluginKind, (s: Scaffolding) => Files>> = {
  hypha: hyphaFiles,
  rhiza: rhizaFiles,
  enzyme: enzymeFiles,
  inhibitor: inhibitorFiles,
}

/** A spore's name, as the manifest takes it. */
const NAME = /^[a-z0-9][a-z0-9-]*$/

export interface ScaffoldRequest {
  readonly kind: string
  readonly name: string
  /** The folder to write into; it must be missing or empty. */
  readonly folder: string
}

export type ScaffoldOutcome =
  | { readonly ok: true; readonly folder: string; readonly files: readonly string[] }
  /** A `core` catalogue key and its params. */
  | { readonly ok: false; readonly key: string; readonly params: Readonly<Record<string, unknown>> }

/** Every file of a new spore of `kind`, by path; the manifest is checked as germination would read it. */
export function scaffoldFiles(kind: PluginKind, name: string): Files {
  const scaffolding: Scaffolding = { kind, name, typeName: typeNameOf(name) }
  const files = {
    ...packageFiles(scaffolding, SEPTUM_VERSION),
    ...readme(scaffolding),
    ...BY_KIND[kind](scaffolding),
  }
  parseManifest(parse(files['spore.yaml']!))
  return files
}

export function scaffoldSpore(request: ScaffoldRequest): ScaffoldOutcome {
  const kind = PLUGIN_KINDS.find((candidate) => candidate === request.kind)
  if (kind === undefined)
    return {
      ok: false,
      key: 'cli.newUnknownKind',
      params: { kind: request.kind, kinds: PLUGIN_KINDS.join(', ') },
    }
  if (!NAME.test(request.name))
    return { ok: false, key: 'cli.newNameRefused', params: { name: request.name } }
  const { folder } = request
  if (existsSync(folder) && readdirSync(folder).length > 0)
    return { ok: false, key: 'cli.newFolderTaken', params: { folder } }
  const files = scaffoldFiles(kind, request.name)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true })
    writeFileSync(join(folder, path), text)
  }
  return { ok: true, folder, files: Object.keys(files).sort() }
}
