import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { CatalogError, type CompiledCatalog, checkCatalog, lazyCatalog } from '@mycelo/septum'
import { coreReason } from '../i18n/reason-words.ts'
import { excerpt } from './excerpt.ts'
import { faultText } from './fault.ts'
import { readYamlFile } from './yaml-file.ts'

const SUFFIX = '.yaml'

/** Far more than any spore's strings in one language; a bigger file is refused before parsing. */
export const CATALOGUE_MAX_BYTES = 1024 * 1024

export type CataloguesLoad =
  | { readonly ok: true; readonly catalogs: ReadonlyMap<string, CompiledCatalog> }
  | { readonly ok: false; readonly reason: string }

/**
 * Compiles every translations/<locale>.yaml of a spore. One key that fails makes the whole spore
 * dormant: a half-translated spore would answer some readers with raw keys. No folder, no catalogues.
 */
export async function loadCatalogues(dir: string): Promise<CataloguesLoad> {
  const folder = join(dir, 'translations')
  let files: string[]
  try {
    // Synchronously, like the files themselves (see yaml-file.ts): a small local folder.
    files = readdirSync(folder)
      .filter((file) => file.endsWith(SUFFIX))
      .sort()
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return { ok: true, catalogs: new Map() }
    return { ok: false, reason: excerpt(`translations/ cannot be read: ${faultText(error)}`) }
  }
  const catalogs = new Map<string, CompiledCatalog>()
  for (const file of files) {
    const locale = file.slice(0, -SUFFIX.length)
    const read = await readYamlFile(join(folder, file), CATALOGUE_MAX_BYTES)
    if (!read.ok) {
      const reason = coreReason('catalogueUnreadable', { file, locale, problem: read.problem })
      return { ok: false, reason: excerpt(reason) }
    }
    try {
      // Checked whole, so a catalogue that does not compile refuses the spore as before; only the
      // sources are kept, each message compiled when first said (about 2 MiB less at idle).
      checkCatalog(locale, read.value)
      catalogs.set(locale, lazyCatalog(locale, read.value))
    } catch (error) {
      if (!(error instanceof CatalogError)) throw error
      // The error may quote the file: a catalogue linked to another file is a string, quoted whole.
      return { ok: false, reason: excerpt(`translations/${file} does not compile: ${error.message}`) }
    }
  }
  return { ok: true, catalogs }
}
