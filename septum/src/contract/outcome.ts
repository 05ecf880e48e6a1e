import type { TranslatableRef } from './i18n.ts'

/** A business answer: done, or refused with a reason a reader can have rendered. */
export type Outcome = { readonly ok: true } | { readonly ok: false; readonly refusal: TranslatableRef }

export type OutcomeOf<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly refusal: TranslatableRef }
