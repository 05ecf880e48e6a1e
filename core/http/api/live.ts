// /events: Server-Sent Events for the page — spore states, install progress, log lines — from the
// API's hub, starting with every spore as it stands so a reader never misses the first state.

import { streamSSE } from 'hono/streaming'
import { guardOf, operatorGuard } from '../../mycelium/guards.ts'
import { pluginsRead } from '../../mycelium/plugins.ts'
import type { ApiEvent } from './events.ts'
import { type ApiDeps, type ApiRoute, route } from './route.ts'

export const EVENT_STREAM = 'text/event-stream'

/** A comment line this often keeps proxies and idle timers from closing a quiet stream. */
const KEEPALIVE_MS = 5_000

export function liveRoutes({ runtime, events, session }: ApiDeps): ApiRoute[] {
  return [
    route({
      method: 'get',
      path: '/events',
      summary: 'Live updates as Server-Sent Events: `state` and `install`, and `log` for admin.logs',
      guard: guardOf('plugins.read', 'listPlugins'),
      streams: [EVENT_STREAM],
      handle: ({ c }) =>
        streamSSE(c, async (sse) => {
          // Log lines say who wrote what on every channel: a reader needs their own guard besides the stream's.
          const logs = session.allows(c, operatorGuard('logs').command)
          // Events are written one after another, in the order they happened.
          let chain = Promise.resolve()
          // A write to a reader already gone fails; the loop below notices and leaves.
          const write = (text: () => Promise<unknown>) => {
            chain = chain.then(text).then(
              () => undefined,
              () => undefined,
            )
          }
          const send = (event: ApiEvent) => {
            if (event.type === 'log' && !logs) return
            write(() => sse.writeSSE({ event: event.type, data: JSON.stringify(event) }))
          }
          const leave = events.subscribe(send)
          sse.onAbort(leave)
          send({ type: 'state', spores: pluginsRead(runtime).listPlugins() })
          while (!sse.aborted && !sse.closed && !events.closed) {
            await sse.sleep(KEEPALIVE_MS)
            write(() => sse.write(': keepalive\n\n'))
          }
          leave()
          await chain
        }),
    }),
  ]
}
