import { COMMON_DOMAIN, type Logger, type TranslatableRef, type Translate } from '@mycelo/septum'
import { markTranslate } from '../hosts/shared-values.ts'
import type { Translator } from './translator.ts'

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
  const { translator, spore, domains, logger } = options
  // Its own keys, the usual call, go straight to its domain's texts: no ref is made for them.
  const own = domains.has(spore) ? translator.textsOf(spore) : undefined
  // Marked with what it renders from, so a spore's host can render its `t` without asking the core.
  return markTranslate((key, params, locale) => {
    if (typeof key === 'string' && own !== undefined)
      return own.find(key, locale ?? options.locale()).render(params, logger)
    const ref: TranslatableRef =
      typeof key !== 'string'
        ? { ...key, ...(params ? { params: { ...key.params, ...params } } : {}) }
        : params === undefined
          ? { domain: spore, key }
          : { domain: spore, key, params }
    if (!domains.has(ref.domain)) {
      throw new Error(
        `spore "${spore}" cannot read the "${ref.domain}" domain: only its own, "${COMMON_DOMAIN}" ` +
          'and the rhizas it requires are readable',
      )
    }
    return translator.render(ref, locale ?? options.locale(), logger)
  }, options)
}
