// Connecting a channel in one step from the page, through the same connectChannel the command line
// uses: the service checks the token before anything is stored, then the settings are written and
// the spore enabled by the functions chat's /set and /enable call, so it needs both their commands.
import { z } from 'zod'
import { connectChannel } from '../../connect/connect.ts'
import { guardOf } from '../../mycelium/guards.ts'
import { HttpError } from '../errors.ts'
import { answerOutcome } from './answer.ts'
import { type ApiDeps, type ApiRoute, route } from './route.ts'

const connectBody = z.strictObject({
  /** The token or password the service checks; never echoed back, stored as a secret. */
  secret: z.string().trim().min(1).max(4096).optional(),
  /** What the command line takes after the channel's name: an address, an account. */
  args: z.array(z.string().trim().min(1).max(500)).max(2).default([]),
})

export function connectRoutes(deps: ApiDeps): ApiRoute[] {
  const { runtime, events, session } = deps
  const enable = guardOf('plugins.toggle', 'enable').command!
  return [
    route({
      method: 'post',
      path: '/connect/:channel',
      summary: 'Connect a channel in one step: checked with its service, its settings stored, then enabled',
      guard: guardOf('plugins.configure', 'setSetting'),
      body: connectBody,
      async handle({ c, param, body }) {
        // Storing the settings is /set's; switching the channel on is /enable's, checked here too.
        if (!session.allows(c, enable)) {
          const asked = `/${enable.slice(enable.indexOf('.') + 1)}`
          throw new HttpError(403, 'http.error.notAllowed', { params: { command: asked } })
        }
        const channel = param('channel')
        const done = await connectChannel(runtime, runtime.plugins, {
          channel,
          args: body.args,
          ...(body.secret === undefined ? {} : { secret: body.secret }),
        })
        if (done.ok) events.stateChanged()
        return answerOutcome(runtime, c, done, (connected) => ({ channel, who: connected.who }))
      },
    }),
  ]
}
