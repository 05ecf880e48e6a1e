import type { IRoomEvent } from 'matrix-js-sdk'
import { serveLoopback } from '../../../kit/loopback.ts'
import { FakeHomeserver } from './homeserver.ts'
import { type Person, World } from './world.ts'

export type { MatrixErrorBody, RecordedCall } from './homeserver.ts'
export { BOT, type Person, SERVER } from './world.ts'

/** A homeserver on 127.0.0.1 that matrix-js-sdk is pointed at through the hypha's homeserverUrl setting. */
export interface FakeMatrix {
  readonly world: World
  readonly server: FakeHomeserver
  readonly homeserverUrl: string
  readonly token: string
  /** Someone writes in a room: an m.room.message event (m.text unless content says otherwise). */
  say(roomId: string, from: Person, body: string, content?: Record<string, unknown>): IRoomEvent
  /** The bot is invited to a new room. */
  invite(
    roomId: string,
    from: Person,
    options?: { direct?: boolean; encrypted?: boolean; name?: string },
  ): void
  /** Uploads bytes as a person's client would; answers the mxc URI. */
  upload(bytes: Uint8Array, type: string): string
  /** The homeserver goes away: open connections close and every call is refused, until back(). */
  away(): Promise<void>
  /** The homeserver answers again at the same address, with what happened meanwhile. */
  back(): void
  stop(): Promise<void>
}

export const FAKE_TOKEN = 'syt_Ym90_FakeAccessTokenForTheLoopback_0123'

export function startFakeMatrix(options: { token?: string } = {}): FakeMatrix {
  const world = new World()
  const token = options.token ?? FAKE_TOKEN
  const server = new FakeHomeserver(world, token)
  const http = serveLoopback((request) => server.handle(request))
  return {
    world,
    server,
    homeserverUrl: http.url,
    token,
    say(roomId, from, body, content = {}) {
      const event = world.messageEvent(from.userId, { msgtype: 'm.text', body, ...content })
      world.append(roomId, event)
      server.changed()
      return event
    },
    invite(roomId, from, inviteOptions = {}) {
      world.invite(roomId, from, inviteOptions)
      server.changed()
    },
    upload(bytes, type) {
      const id = `media${world.media.size + 1}`
      world.media.set(id, { bytes, type })
      return `mxc://fake.local/${id}`
    },
    away: () => http.away(),
    back: () => http.back(),
    async stop() {
      server.stop()
      await http.stop()
    },
  }
}
