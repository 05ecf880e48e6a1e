import type { Health, HealthState, RhizaHealth } from '@mycelo/septum'
import { faultText } from '../germination/fault.ts'
import type { GerminatedSpore } from '../germination/index.ts'
import { type DeadlineExceeded, raceDeadline } from './deadline.ts'

const STATES: ReadonlySet<HealthState> = new Set(['healthy', 'degraded', 'unreachable'])

/** Whether a spore is asked its health: every live rhiza, and every live channel that reports one. */
export function reportsHealth(spore: GerminatedSpore): boolean {
  if (spore.state !== 'live') return false
  if (spore.kind === 'rhiza') return true
  return spore.kind === 'hypha' && typeof (spore.instance as { health?: unknown }).health === 'function'
}

export interface AskHealthOptions {
  readonly ms: number
  /** Told when the deadline passes, for the one log line an expiry gets. */
  readonly onExpired?: (expiry: DeadlineExceeded) => void
}

/**
 * One health() call, bounded in time. A throw, a late answer or an answer with no known state
 * reads as unreachable: never as healthy.
 */
export async function askHealth(spore: GerminatedSpore, options: AskHealthOptions): Promise<RhizaHealth> {
  const { name } = spore
  try {
    const asked = Promise.resolve().then(() => (spore.instance as { health(): Health }).health())
    return reported(name, await raceDeadline(asked, { step: 'health()', ...options }))
  } catch (error) {
    return { name, state: 'unreachable', detail: faultText(error), checkedAt: new Date() }
  }
}

function reported(name: string, health: Health | undefined): RhizaHealth {
  if (typeof health !== 'object' || health === null || !STATES.has(health.state)) {
    return { name, state: 'unreachable', detail: 'health() gave no known state', checkedAt: new Date() }
  }
  return {
    name,
    state: health.state,
    ...(health.detail !== undefined ? { detail: String(health.detail) } : {}),
    checkedAt: health.checkedAt instanceof Date ? health.checkedAt : new Date(),
  }
}
