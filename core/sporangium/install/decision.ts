// Whether a strain put in place of another keeps the operator's choice to run it. It does only
// when it asks for nothing the replaced one did not; otherwise it waits, disabled, for consent.
import type { ManifestReading } from '../../germination/manifest-reading.ts'
import { asksForMore, requestsOf, requestsText } from './requests.ts'

export interface Replacement {
  /** How the reason opens: "installed from source "x" at strain 1.0.0". */
  readonly what: string
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
    next.manifest === undefined ? 'its manifest cannot be read' : requestsText(requestsOf(next.manifest))
  const more =
    current?.manifest === undefined ||
    next.manifest === undefined ||
    asksForMore(requestsOf(next.manifest), requestsOf(current.manifest))
  if (current !== undefined && wasEnabled && !more) return { ok: true, enabled: true, reason: null }
  if (current !== undefined && wasEnabled && current.enforcing) return { ok: false, guard: true }
  const why = current !== undefined && wasEnabled ? ', which asks for more than the strain it replaced' : ''
  return {
    ok: true,
    enabled: false,
    reason: `${replacement.what}${why}, and not started: ${asked}. Enable it to start it.`,
  }
}
