// Whether a strain put in place of another keeps the operator's choice to run it. It does only
// when it asks for nothing the replaced one did not; otherwise it waits, disabled, for consent.

import type { TranslatableRef } from '@mycelo/septum'
import type { ManifestReading } from '../../germination/manifest-reading.ts'
import { coreReason, reasonPart } from '../../i18n/reason-words.ts'
import { asksForMore, requestsOf, requestsWords } from './requests.ts'

export interface Replacement {
  /** How the reason opens: "installed at strain 1.0.0 from source "x"", as catalogue words. */
  readonly what: TranslatableRef
  /** The strain going into place. */
  readonly next: ManifestReading
  /** The strain it replaces, when one is installed. */
  readonly current: ManifestReading | undefined
  /** Whether the install row has the replaced strain enabled. */
  readonly wasEnabled: boolean
}

export type Decision =
  | { readonly ok: true; readonly enabled: boolean; readonly reason: string | null }
  /** An enabled enforcing inhibitor cannot be switched off by a replacement: it would open the channel it guards. */
  | { readonly ok: false; readonly guard: true }

export function decide(replacement: Replacement): Decision {
  const { next, current, wasEnabled } = replacement
  const asked =
    next.manifest === undefined ? reasonPart('manifestUnreadable') : requestsWords(requestsOf(next.manifest))
  const more =
    current?.manifest === undefined ||
    next.manifest === undefined ||
    asksForMore(requestsOf(next.manifest), requestsOf(current.manifest))
  if (current !== undefined && wasEnabled && !more) return { ok: true, enabled: true, reason: null }
  if (current !== undefined && wasEnabled && current.enforcing) return { ok: false, guard: true }
  const asksMore = current !== undefined && wasEnabled ? 'yes' : 'no'
  return {
    ok: true,
    enabled: false,
    reason: coreReason('notStarted', { what: replacement.what, more: asksMore, asked }),
  }
}
