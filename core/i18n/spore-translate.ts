import {
  COMMON_DOMAIN,
  isAnyOf,
  type Logger,
  type Manifest,
  type TranslatableRef,
  type Translate,
} from '@mycelo/septum'
import type { Translator } from './translator.ts'

/** The domains a spore may read: its own, `common`, and every rhiza its manifest requires. */
export function readableDomains(name: string, manifest: Manifest | undefined): ReadonlySet<string> {
  const domains = new Set([name, COMMON_DOMAIN])
  for (const requirement of manifest?.requires ?? []) {
    if (isAnyOf(requirement)) for (const alternative of requirement.any_of) domains.add(alternative.rhiza)
    else domains.add(requirement.rhiza)
  }
  return domains
}

export interface SporeTranslateOptions {
  readonly translator: Translator
  readonly spore: string
  readonly domains: ReadonlySet<string>
  /** The locale used when a call names none: the reader's in a handler, the default elsewhere. */
  readonly locale: () => string
  /** The spore's own logger, so a format failure is logged under its name. */
  readonly logger: Logger
}

/** A spore's `ctx.t`: bare keys in its own domain; a ref to a domain it may not read throws. */
export function sporeTranslate(options: SporeTranslateOptions): Translate {
  const { translator, spore, domains } = options
  return (key, params, locale) => {
    const ref: TranslatableRef =
      typeof key === 'string'
        ? { domain: spore, key, ...(params ? { params } : {}) }
        : { ...key, ...(params ? { params: { ...key.params, ...params } } : {}) }
    if (!domains.has(ref.domain)) {
      throw new Error(
        `spore "${spore}" cannot read the "${ref.domain}" domain: only its own, "${COMMON_DOMAIN}" ` +
          'and the rhizas it requires are readable',
      )
    }
    return translator.render(ref, locale ?? options.locale(), options.logger)
  }
}
