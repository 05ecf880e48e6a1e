import { existsSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import { join, relative, resolve } from 'node:path'
import { isCodeCommand, type Manifest } from '@mycelo/septum'
import { done, refused, type ToolOutcome } from './outcome.ts'

/** Where a spore's module may live, in the order a core tries them. */
const ENTRY_CANDIDATES = ['src/index.ts', 'index.ts', 'dist/index.js', 'index.js'] as const

/** What the core provides to every spore: left as imports, never bundled. */
export const PROVIDED = ['@mycelo/septum', '@mycelo/septum/*', 'zod', 'zod/*']

/** The name the bundle takes in the strain: the last candidate a core tries, so nothing shadows it. */
export const BUNDLE_FILE = 'index.js'

/**
 * The spore's module and everything it imports, but what the core provides, as one ES module
 * (undefined for an enzyme that answers with respond: only and has no module).
 */
export async function bundleModule(
  dir: string,
  manifest: Manifest,
): Promise<ToolOutcome<string | undefined>> {
  const entry = await findEntry(dir)
  if (entry === undefined) {
    if (manifest.kind === 'enzyme' && !manifest.commands.some(isCodeCommand)) return done(undefined)
    return refused('pack.noModule', { dir, candidates: ENTRY_CANDIDATES.join(', ') })
  }
  const built = await Bun.build({
    entrypoints: [join(dir, entry)],
    target: 'bun',
    format: 'esm',
    external: PROVIDED,
    throw: false,
  })
  const output = built.outputs.find((artifact) => artifact.kind === 'entry-point')
  if (!built.success || output === undefined || built.outputs.length !== 1) {
    const problem = built.logs.map(String).join('\n') || `${built.outputs.length} files were produced`
    return refused('pack.bundleFailed', { entry, problem })
  }
  return done(withModulePathsFrom(dir, await output.text()))
}

async function findEntry(dir: string): Promise<string | undefined> {
  for (const candidate of ENTRY_CANDIDATES) {
    const found = await stat(join(dir, candidate)).catch(() => undefined)
    if (found?.isFile()) return candidate
  }
  return undefined
}

/**
 * Bun heads each bundled module with a `// <path>` comment relative to the working folder: made
 * relative to the spore instead, so the bytes do not depend on where the author ran the tool,
 * nor tell where their files live.
 */
function withModulePathsFrom(dir: string, bundle: string): string {
  return bundle.replace(/^\/\/ (\S[^\n]*)$/gm, (line, path: string) => {
    const absolute = resolve(path)
    return existsSync(absolute) ? `// ${relative(dir, absolute)}` : line
  })
}
