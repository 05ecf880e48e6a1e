import type { Manifest } from '@mycelo/septum'
import { loadIsolated } from '../hosts/isolated-loading.ts'
import { hostKeeper } from '../hosts/keeper.ts'
import { coreReason } from '../i18n/reason-words.ts'
import { DEFAULT_DEADLINES } from '../supervision/deadline.ts'
import { type ImportRefusal, importModule, type LoadedModule } from './module-import.ts'

export {
  ENTRY_CANDIDATES,
  type LoadedModule,
  type LoadOptions,
  type SporeExport,
} from './module-import.ts'

export type ModuleLoad =
  | { readonly ok: true; readonly module: LoadedModule | undefined }
  | { readonly ok: false; readonly reason: string }

/**
 * Imports a spore's module and reads its default export: here, or in a host of its own when the
 * isolation policy says so (see core/hosts). A refusal is worded as the operator reads it.
 */
export async function loadModule(
  dir: string,
  manifest: Manifest,
  options: import('./module-import.ts').LoadOptions = {},
): Promise<ModuleLoad> {
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINES.create
  const { spore, fresh, transient } = options
  if (spore !== undefined && hostKeeper.isolationOf(spore, dir) === 'worker') {
    return loadIsolated(dir, manifest, {
      spore,
      deadlineMs,
      ...(fresh === undefined ? {} : { fresh }),
      ...(transient === undefined ? {} : { transient }),
    })
  }
  const imported = await importModule(dir, manifest, { deadlineMs, fresh })
  return imported.ok ? imported : { ok: false, reason: refusalText(imported.refusal) }
}

/** A refusal as the operator reads it. */
export function refusalText(refusal: ImportRefusal): string {
  return 'text' in refusal ? refusal.text : coreReason(refusal.key, refusal.params)
}
