import {
  COMMON_DOMAIN,
  type Outcome,
  type OutcomeOf,
  RefusalError,
  type TranslatableRef,
} from '@mycelo/septum'
import type { Translator } from '../i18n/translator.ts'

export type Refusal = { readonly ok: false; readonly refusal: TranslatableRef }

export const DONE: Outcome = Object.freeze({ ok: true })

/**
 * A business refusal, worded in the `common` domain so whichever spore asked can render it with
 * its own `ctx.t(ref)`; the params carry the names it mentions.
 */
export function refused(key: string, params?: Readonly<Record<string, unknown>>): Refusal {
  return {
    ok: false,
    refusal: { domain: COMMON_DOMAIN, key: `refusal.${key}`, ...(params ? { params } : {}) },
  }
}

/** Turns Outcomes into what a rejecting scope answers. */
export interface Settling {
  /** Throws a refusal; a success answers nothing. */
  done(outcome: Outcome): void
  /** Throws a refusal; answers the value otherwise. */
  value<T>(outcome: OutcomeOf<T>): T
}

/**
 * For the scopes that reject rather than resolve a refusal: the RefusalError carries the ref, and
 * its message is the English rendering, for a log.
 */
export function settling(translator: Translator): Settling {
  const reject = (refusal: TranslatableRef) => new RefusalError(refusal, translator.render(refusal, 'en'))
  return {
    done(outcome) {
      if (!outcome.ok) throw reject(outcome.refusal)
    },
    value(outcome) {
      if (!outcome.ok) throw reject(outcome.refusal)
      return outcome.value
    },
  }
}
