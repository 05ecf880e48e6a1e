import type { BroadcastResult, MessagesBroadcast, MessagesSend } from '@mycelo/septum'
import { audited } from '../audit/audited.ts'
import { faultText } from '../germination/fault.ts'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'

/** messages.send: a channel that is not live is a fault, so the promise rejects. */
export function messagesSend(runtime: CoreRuntime): MessagesSend {
  return {
    send: (target, content) => runtime.hyphae.send(target, content),
  }
}

/** messages.broadcast: every configured target is tried; one failing never stops the others. */
export function messagesBroadcast(runtime: CoreRuntime): MessagesBroadcast {
  return audited(runtime, 'messages.broadcast', {
    async broadcast(content) {
      const targets = [...runtime.restrictions.targets()]
      return Promise.all(
        targets.map(async (target): Promise<BroadcastResult> => {
          try {
            await runtime.hyphae.send(target, content)
            return { target, ok: true }
          } catch (error) {
            runtime.logger.warn('a broadcast target could not be reached', {
              channel: target.channel,
              error: faultText(error),
            })
            return { target, ok: false, error: faultText(error) }
          }
        }),
      )
    },
  })
}
