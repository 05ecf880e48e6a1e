import type { Update } from '@grammyjs/types'
import { serveLoopback } from '../../../kit/loopback.ts'
import { type FakeBotApi as Api, FakeBotApi } from './server.ts'
import { type HeardMessage, type Person, World } from './world.ts'

export type { Injected, RecordedCall } from './server.ts'
export type { HeardMessage, Person } from './world.ts'

/** A Telegram on 127.0.0.1 that grammY is pointed at through the hypha's `apiRoot` setting. */
export interface FakeTelegram {
  readonly world: World
  readonly api: Api
  /** For the `apiRoot` setting. */
  readonly apiRoot: string
  readonly token: string
  /** A person writes: the message, as Telegram hands it to the bot in an update. */
  say(options: Parameters<World['message']>[0]): HeardMessage
  /** The author edits a message's text: an edited_message update. */
  edit(message: HeardMessage, text: string): NonNullable<Update['edited_message']>
  /** A person sends a photo (with an optional caption); answers the message. */
  sendPhoto(from: Person, bytes: Uint8Array, caption?: string): HeardMessage
  push(update: Omit<Update, 'update_id'>): Update
  /** Telegram goes away: open connections close and every call is refused, until back(). */
  away(): Promise<void>
  /** Telegram answers again at the same address, with what was said meanwhile. */
  back(): void
  stop(): Promise<void>
}

export const FAKE_TOKEN = '700000001:AAFakeTokenForTheLoopbackTelegram_xyz'

export function startFakeTelegram(options: { token?: string } = {}): FakeTelegram {
  const world = new World()
  const token = options.token ?? FAKE_TOKEN
  const api = new FakeBotApi(world, token)
  const server = serveLoopback((request) => api.handle(request))
  const push = (fields: Omit<Update, 'update_id'>) => {
    const update = world.update(fields)
    api.push(update)
    return update
  }
  return {
    world,
    api,
    apiRoot: server.url,
    token,
    say(options) {
      const message = world.message(options)
      push({ message })
      return message
    },
    edit(message, text) {
      const edited = { ...message, text, edit_date: Math.floor(Date.now() / 1000) }
      push({ edited_message: edited })
      return edited
    },
    sendPhoto(from, bytes, caption) {
      const stored = world.storeFile(bytes, 'jpg')
      const message = world.message({
        from,
        extra: {
          photo: [{ ...stored, file_id: `${stored.file_id}`, width: 90, height: 90 }],
          ...(caption === undefined ? {} : { caption }),
        },
      })
      push({ message })
      return message
    },
    push,
    away: () => server.away(),
    back: () => server.back(),
    async stop() {
      api.stop()
      await server.stop()
    },
  }
}
