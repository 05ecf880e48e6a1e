import { formatMessage } from '../catalog/format-message.ts'
import {
  COMMON_DOMAIN,
  type Manifest,
  readableDomains,
  type TranslatableRef,
  type Translate,
} from '../contract/index.ts'
import type { Catalogues } from './catalogues.ts'
import { errorText } from './failures.ts'

/** Thrown by the kit's t() for a domain the spore may not read, exactly where the bot would throw. */
export class UndeclaredDomainError extends Error {
  constructor(
    readonly domain: string,
    readonly plugin: string,
  ) {
    super(
      `t(): "${plugin}" may not read domain "${domain}"; only its own, ${COMMON_DOMAIN}, ` +
        'or a rhiza its manifest requires',
    )
    this.name = 'UndeclaredDomainError'
  }
}

export interface TranslatorOptions {
  readonly manifest: Pick<Manifest, 'name' | 'requires'>
  readonly catalogues: Catalogues
  /** The author's own t(): it answers the domains the kit holds no catalogue for. */
  readonly fallback: Translate
  /** The reader's locale inside a handler; absent in start(), which uses the default locale. */
  readonly readerLocale?: string
  /** Told when a message cannot format: the bot logs an error and renders the key instead. */
  readonly onFormatError: (key: string, locale: string, error: string) => void
}

/** A t() that refuses undeclared domains and renders the spore's own domain from its catalogues. */
export function catalogueTranslator(options: TranslatorOptions): Translate {
  const { manifest, catalogues } = options
  const domains = readableDomains(manifest.name, manifest.requires)
  return (key, params, locale) => {
    const ref: TranslatableRef = typeof key === 'string' ? { domain: manifest.name, key } : key
    if (!domains.has(ref.domain)) throw new UndeclaredDomainError(ref.domain, manifest.name)
    if (ref.domain !== manifest.name) return options.fallback(key, params, locale)
    const wanted = locale ?? options.readerLocale ?? catalogues.defaultLocale
    // A key missing from the reader's locale cascades to the default one, then renders as itself.
    for (const candidate of [wanted, catalogues.defaultLocale]) {
      const message = catalogues.compiled.get(candidate)?.get(ref.key)
      if (message === undefined) continue
      try {
        return formatMessage(message, { ...ref.params, ...params })
      } catch (error) {
        options.onFormatError(ref.key, candidate, errorText(error))
        return ref.key
      }
    }
    return ref.key
  }
}
