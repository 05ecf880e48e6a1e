import type { Manifest } from '@mycelo/septum'
import { hostKeeper } from '../hosts/keeper.ts'
import { coreReason } from '../i18n/reason-words.ts'
import { DEFAULT_DEADLINES, raceDeadline } from '../supervision/deadline.ts'
import { faultText } from './fault.ts'
import { implementationGaps } from './implementation.ts'
import type { LoadedModule } from './module-loading.ts'

export type Creation =
  | { readonly ok: true; readonly instance: unknown }
  | { readonly ok: false; readonly reason: string }

// A manifest-only enzyme: every command answers from the catalogue, so nothing has a handler.
const RESPOND_ONLY = Object.freeze({ handlers: Object.freeze({}) })

/** Calls create() once and checks the result has what its kind needs. */
export async function createInstance(
  manifest: Manifest,
  module: LoadedModule | undefined,
  deadlineMs: number = DEFAULT_DEADLINES.create,
): Promise<Creation> {
  if (module === undefined) return { ok: true, instance: RESPOND_ONLY }
  let instance: unknown
  try {
    instance = await raceDeadline(
      Promise.resolve().then(() => module.exported.create()),
      { step: 'create()', ms: deadlineMs },
    )
  } catch (error) {
    hostKeeper.discard(module.host, error)
    return { ok: false, reason: coreReason('createFailed', { fault: faultText(error) }) }
  }
  let gaps: string | undefined
  try {
    gaps = implementationGaps(manifest, instance)
  } catch (error) {
    // A Proxy or a throwing getter on what create() returned: this spore's fault alone.
    hostKeeper.end(module.host)
    return { ok: false, reason: coreReason('createUnreadable', { fault: faultText(error) }) }
  }
  if (gaps === undefined) return { ok: true, instance }
  hostKeeper.end(module.host)
  return { ok: false, reason: gaps }
}
