import { type CompiledCatalog, lazyCatalog, type Translate } from '@mycelo/septum'
import { sporeTranslate } from '../i18n/spore-translate.ts'
import { Translator } from '../i18n/translator.ts'
import type { PortableTranslate } from './portable-translate.ts'

/** The spore's `t` made in its host from the catalogues' sources, by the core's own translator. */
export function localTranslate(portable: PortableTranslate): Translate {
  const { logger, locale } = portable
  const translator = new Translator({ defaultLocale: portable.defaultLocale, logger })
  for (const [domain, byLocale] of Object.entries(portable.catalogs)) {
    const catalogs = new Map<string, CompiledCatalog>()
    for (const [at, sources] of Object.entries(byLocale)) catalogs.set(at, lazyCatalog(at, sources))
    translator.addDomain(domain, catalogs)
  }
  return sporeTranslate({
    translator,
    spore: portable.spore,
    domains: new Set(portable.readable),
    locale: () => locale,
    logger,
  })
}
