// The septum package as an author outside the checkout gets it: packed by `npm pack` (which runs
// `prepack`, the dist/ build), installed from the tarball into a project in the system's temp folder.
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join } from 'node:path'

const SEPTUM_DIR = join(import.meta.dir, '..', '..')
const CHECKOUT = join(SEPTUM_DIR, '..')
/** The checkout's own compiler: an author installs typescript; the test need not download it again. */
export const TSC = join(CHECKOUT, 'node_modules', 'typescript', 'bin', 'tsc')
/** npm runs `prepack` through a shell that must find this very Bun. */
const PATH_WITH_BUN = `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`

export interface Run {
  readonly status: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs a command to completion with Bun on the PATH; its output is kept for the assertion message. */
export function run(command: string, args: readonly string[], cwd: string): Run {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, PATH: PATH_WITH_BUN, NO_COLOR: '1', npm_config_update_notifier: 'false' },
  })
  return {
    status: result.status,
    stdout: result.stdout ?? '',
    stderr: result.stderr ?? String(result.error ?? ''),
  }
}

/** What a failed run printed, for an assertion's message. */
export const said = (result: Run) => `${result.stdout}\n${result.stderr}`

let packed: string | undefined

/** `npm pack` of septum/, once per test process; answers the tarball's path. */
export function packSeptum(): string {
  if (packed !== undefined) return packed
  const into = mkdtempSync(join(tmpdir(), 'septum-pack-'))
  const result = run('npm', ['pack', '--pack-destination', into, '--silent'], SEPTUM_DIR)
  if (result.status !== 0) throw new Error(`npm pack failed:\n${said(result)}`)
  const tarball = readdirSync(into).find((file) => file.endsWith('.tgz'))
  if (tarball === undefined) throw new Error(`npm pack wrote no tarball into ${into}`)
  packed = join(into, tarball)
  return packed
}

export interface AuthorProjectOptions {
  /** Spore folders copied into the project, each under its own folder name. */
  readonly spores?: readonly string[]
  /** Further dependencies beside the septum tarball. */
  readonly dependencies?: Readonly<Record<string, string>>
  readonly devDependencies?: Readonly<Record<string, string>>
  /** `npm` or `bun`: which client installs it. */
  readonly installer: 'npm' | 'bun'
}

export interface AuthorProject {
  readonly dir: string
  remove(): void
}

/** An empty project outside the checkout that depends on the packed septum, installed. */
export function authorProject(options: AuthorProjectOptions): AuthorProject {
  const dir = mkdtempSync(join(tmpdir(), `septum-author-${options.installer}-`))
  for (const spore of options.spores ?? [])
    cpSync(spore, join(dir, spore.split(/[\\/]/).pop()!), { recursive: true })
  const manifest = {
    name: 'septum-author',
    private: true,
    type: 'module',
    dependencies: { '@mycelo/septum': `file:${packSeptum()}`, ...options.dependencies },
    devDependencies: { ...options.devDependencies },
  }
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
  const install =
    options.installer === 'npm'
      ? run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], dir)
      : run(process.execPath, ['install', '--no-progress'], dir)
  if (install.status !== 0)
    throw new Error(`${options.installer} install failed in ${dir}:\n${said(install)}`)
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}
