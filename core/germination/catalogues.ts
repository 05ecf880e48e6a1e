import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { CatalogError, type CompiledCatalog, compileCatalog } from '@mycelo/septum'
import { parse } from 'yaml'
import { faultText } from './fault.ts'

const SUFFIX = '.yaml'

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
    files = (await readdir(folder)).filter((file) => file.endsWith(SUFFIX)).sort()
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return { ok: true, catalogs: new Map() }
    return { ok: false, reason: `translations/ cannot be read: ${faultText(error)}` }
  }
  const catalogs = new Map<string, CompiledCatalog>()
  for (const file of files) {
    const locale = file.slice(0, -SUFFIX.length)
    let parsed: unknown
    try {
      parsed = parse(await readFile(join(folder, file), 'utf8'))
    } catch (error) {
      return {
        ok: false,
        reason: `translations/${file} (locale "${locale}") cannot be read: ${faultText(error)}`,
      }
    }
    try {
      catalogs.set(locale, compileCatalog(locale, parsed))
    } catch (error) {
      if (!(error instanceof CatalogError)) throw error
      return { ok: false, reason: `translations/${file} does not compile: ${error.message}` }
    }
  }
  return { ok: true, catalogs }
}
