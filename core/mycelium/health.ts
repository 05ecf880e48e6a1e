import type { Health, HealthRead, HealthState, Hypha, Rhiza, RhizaHealth } from '@mycelo/septum'
import { faultText } from '../germination/fault.ts'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import { logExpiry, raceDeadline } from '../supervision/deadline.ts'

const STATES: ReadonlySet<HealthState> = new Set(['healthy', 'degraded', 'unreachable'])

/**
 * health.read: every live rhiza, and every live channel that reports its health, asked at once.
 * One that throws, or does not answer in time, reads as unreachable.
 */
export function healthRead(runtime: CoreRuntime): HealthRead {
  return {
    async health() {
      const reporting = runtime.germination.spores.filter(
        (spore) =>
          spore.state === 'live' &&
          (spore.kind === 'rhiza' ||
            (spore.kind === 'hypha' && typeof (spore.instance as Hypha).health === 'function')),
      )
      const answers = await Promise.all(
        reporting.map(async (spore): Promise<RhizaHealth> => {
          try {
            const asked = Promise.resolve().then(() => (spore.instance as Rhiza).health())
            const ms = runtime.config.timeouts.health
            const onExpired = logExpiry(runtime.logger, spore.name)
            return reported(spore.name, await raceDeadline(asked, { step: 'health()', ms, onExpired }))
          } catch (error) {
            return { name: spore.name, state: 'unreachable', detail: faultText(error), checkedAt: new Date() }
          }
        }),
      )
      // What was asked now is the supervisor's latest word too, so every surface reads the same.
      for (const answer of answers) runtime.supervisor.record(answer.name, answer)
      // A channel being reconnected to has no instance to ask: the supervisor says where it stands.
      const reconnecting = runtime.germination.spores
        .filter((spore) => spore.state !== 'live' && spore.state !== 'disabled')
        .flatMap((spore): RhizaHealth[] => {
          const down = runtime.supervisor.notLive(spore.name)
          return down === undefined
            ? []
            : [{ name: spore.name, state: 'unreachable', detail: down, checkedAt: new Date() }]
        })
      return [...answers, ...reconnecting]
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
