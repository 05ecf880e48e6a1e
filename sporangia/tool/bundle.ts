import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { isCodeCommand, type Manifest } from '@mycelo/septum'
import { done, refused, type ToolOutcome } from './outcome.ts'

/** Where a spore's module may live, in the order a core tries them. */
const ENTRY_CANDIDATES = ['src/index.ts', 'index.ts', 'dist/index.js', 'index.js'] as const

/** What the core provides to every spore: left as imports, never bundled. */
const PROVIDED = ['@mycelo/septum', '@mycelo/septum/*', 'zod', 'zod/*']

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
  // `root` keeps the paths the bundle's comments mention relative to the spore, wherever it is packed from.
  const built = await Bun.build({
    entrypoints: [join(dir, entry)],
    root: dir,
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
  return done(await output.text())
}

async function findEntry(dir: string): Promise<string | undefined> {
  for (const candidate of ENTRY_CANDIDATES) {
    const found = await stat(join(dir, candidate)).catch(() => undefined)
    if (found?.isFile()) return candidate
  }
  return undefined
}
