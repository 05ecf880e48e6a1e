import type { HealthRead, RhizaHealth } from '@mycelo/septum'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import { logExpiry } from '../supervision/deadline.ts'
import { askHealth, reportsHealth } from '../supervision/health-asking.ts'

/**
 * health.read: every live rhiza, and every live channel that reports its health, asked at once.
 * One that throws, or does not answer in time, reads as unreachable.
 */
export function healthRead(runtime: CoreRuntime): HealthRead {
  return {
    async health() {
      const ms = runtime.config.timeouts.health
      const answers = await Promise.all(
        runtime.germination.spores
          .filter(reportsHealth)
          .map((spore) => askHealth(spore, { ms, onExpired: logExpiry(runtime.logger, spore.name) })),
      )
      // What was asked now is the supervisor's latest word too, so every surface reads the same.
      for (const answer of answers) runtime.supervisor.record(answer.name, answer)
      // A channel finding its way back reads as the supervisor says, whatever it answered itself.
      const read = answers.map((answer): RhizaHealth => {
        const state = runtime.supervisor.stateOf(answer.name)?.state
        if (state !== 'reconnecting' && state !== 'connecting') return answer
        return { ...answer, state: 'unreachable', detail: runtime.supervisor.notLive(answer.name) ?? state }
      })
      // A channel being reconnected to has no instance to ask: the supervisor says where it stands.
      const reconnecting = runtime.germination.spores
        .filter((spore) => spore.state !== 'live' && spore.state !== 'disabled')
        .flatMap((spore): RhizaHealth[] => {
          const down = runtime.supervisor.notLive(spore.name)
          return down === undefined
            ? []
            : [{ name: spore.name, state: 'unreachable', detail: down, checkedAt: new Date() }]
        })
      return [...read, ...reconnecting]
    },
  }
}
