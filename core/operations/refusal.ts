import type { TranslatableRef } from '@mycelo/septum'

/** An operation that did not happen, and why, in the reader's words (`core` or `common` keys). */
export type OperationRefusal = { readonly ok: false; readonly refusal: TranslatableRef }

/** A refusal worded by the core's own `operations.*` keys. */
export function operationRefused(
  key: string,
  params: Readonly<Record<string, unknown>> = {},
): OperationRefusal {
  return { ok: false, refusal: { domain: 'core', key: `operations.${key}`, params } }
}
