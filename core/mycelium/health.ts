import type { HealthRead, RhizaHealth } from '@mycelo/septum'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import { logExpiry } from '../supervision/deadline.ts'
import { askHealth, reportsHealth } from '../supervision/health-asking.ts'
import { standing } from './plugins.ts'
import { readerLocale } from './reader-locale.ts'

/** A channel's health says what waits in its outbox and what was dropped, when there is any. */
function withOutbox(runtime: CoreRuntime, answer: RhizaHealth): RhizaHealth {
  const channel = runtime.outbox.report().channels.find((entry) => entry.channel === answer.name)
  if (channel === undefined) return answer
  const { translator } = runtime
  const locale = readerLocale(translator.defaultLocale)
  const say = (key: string, params: Record<string, unknown>) =>
    translator.render({ domain: 'core', key: `outbox.${key}`, params }, locale)
  const parts: string[] = []
  if (channel.waiting > 0) {
    parts.push(say('waiting', { count: channel.waiting, conversations: channel.conversations.length }))
  }
  const { age, refused } = channel.dropped
  if (age > 0) parts.push(say('droppedAge', { count: age, minutes: runtime.config.outbox.maxAgeMinutes }))
  if (refused > 0) parts.push(say('droppedRefused', { count: refused }))
  if (parts.length === 0) return answer
  const detail = [answer.detail, ...parts].filter((part) => part !== undefined && part !== '').join('; ')
  return { ...answer, detail }
}

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
        const spore = runtime.germination.byName.get(answer.name)
        const detail =
          spore === undefined ? runtime.supervisor.notLive(answer.name) : standing(runtime, spore).reason
        return { ...answer, state: 'unreachable', detail: detail ?? state }
      })
      // A channel being reconnected to has no instance to ask: the supervisor says where it stands.
      const reconnecting = runtime.germination.spores
        .filter((spore) => spore.state !== 'live' && spore.state !== 'disabled')
        .flatMap((spore): RhizaHealth[] => {
          if (runtime.supervisor.notLive(spore.name) === undefined) return []
          const detail = standing(runtime, spore).reason
          return [
            { name: spore.name, state: 'unreachable', ...(detail ? { detail } : {}), checkedAt: new Date() },
          ]
        })
      return [...read, ...reconnecting].map((answer) => withOutbox(runtime, answer))
    },
  }
}
