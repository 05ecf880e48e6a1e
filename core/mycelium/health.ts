import type { Health, HealthRead, HealthState, Rhiza, RhizaHealth } from '@mycelo/septum'
import { faultText } from '../germination/fault.ts'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'

const STATES: ReadonlySet<HealthState> = new Set(['healthy', 'degraded', 'unreachable'])

/** health.read: every live rhiza asked at once; one that throws reads as unreachable. */
export function healthRead(runtime: CoreRuntime): HealthRead {
  return {
    async health() {
      const rhizas = runtime.germination.spores.filter(
        (spore) => spore.kind === 'rhiza' && spore.state === 'live',
      )
      return Promise.all(
        rhizas.map(async (spore): Promise<RhizaHealth> => {
          try {
            return reported(spore.name, await (spore.instance as Rhiza).health())
          } catch (error) {
            return { name: spore.name, state: 'unreachable', detail: faultText(error), checkedAt: new Date() }
          }
        }),
      )
    },
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
