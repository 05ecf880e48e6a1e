// A spore's description in its reader's language. Since septum 1.1 a manifest's `description` may
// name a key of the spore's own catalogue (`spore.description`), translated like its commands'; a
// septum 1.0 description written as a sentence is shown as written.
import { SILENT } from '../boot/catalogues.ts'
import type { Translator } from '../i18n/translator.ts'
import { CATALOGUE_KEY } from './setting-labels.ts'

export function describedIn(
  translator: Translator,
  spore: { readonly name: string; readonly description?: string | undefined },
  locale: string,
): string | undefined {
  const { description } = spore
  if (description === undefined || description === '' || !CATALOGUE_KEY.test(description)) return description
  // A key no catalogue knows is still shown: it says more than nothing, and the author sees it.
  return translator.render({ domain: spore.name, key: description }, locale, SILENT)
}
