import { COMMON_DOMAIN, type Outcome, type TranslatableRef } from '@mycelo/septum'

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
