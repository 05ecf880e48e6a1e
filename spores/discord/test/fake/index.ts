import type {
  APIAttachment,
  GatewayMessageCreateDispatchData,
  GatewayMessageUpdateDispatchData,
  GatewayThreadCreateDispatchData,
} from 'discord.js'
import { EmbedType, GatewayDispatchEvents, MessageReferenceType, MessageType } from 'discord.js'
import { FakeGateway, type GatewaySocketData } from './gateway.ts'
import { FakeRest } from './rest.ts'
import { type Person, type PortalIntents, World } from './world.ts'

export type { ReceivedFrame } from './gateway.ts'
export type { RecordedRequest, UploadedFile } from './rest.ts'
export type { Person, PortalIntents } from './world.ts'

export interface FakeDiscordOptions {
  /** The token the fake accepts; `fake-bot-token` unless given. */
  readonly token?: string
  /** Which privileged intents the application has switched on; both unless given. */
  readonly portalIntents?: Partial<PortalIntents>
  /** Kept short so heartbeats and their ACKs happen within a test. */
  readonly heartbeatInterval?: number
  /** Extra members beyond the named people, for paging through the member list. */
  readonly crowd?: number
}

/** What a test injects as a user's message. */
export interface InjectedMessage {
  readonly channelId: string
  readonly author: Person
  readonly content: string
  readonly attachments?: readonly APIAttachment[]
  /** Makes it a reply (type 19) to this earlier message, carried whole as `referenced_message`. */
  readonly replyTo?: GatewayMessageCreateDispatchData
}

/**
 * A Discord on 127.0.0.1 that the real discord.js client can be pointed at: REST under
 * `restApi` (discord.js's `rest.api` option) and a gateway whose URL `/gateway/bot` hands out.
 */
export interface FakeDiscord {
  readonly world: World
  readonly rest: FakeRest
  readonly gateway: FakeGateway
  /** For discord.js's `rest: { api }` option, and the hypha's `apiBaseUrl` setting. */
  readonly restApi: string
  readonly token: string
  /** Dispatches MESSAGE_CREATE as if a user wrote it; answers the message as sent. */
  say(message: InjectedMessage): GatewayMessageCreateDispatchData
  /** Dispatches MESSAGE_UPDATE as Discord does when its author edits the text. */
  edit(message: GatewayMessageCreateDispatchData, content: string): GatewayMessageCreateDispatchData
  /** Dispatches MESSAGE_UPDATE as Discord does when a link in it unfurls: same text, an embed more. */
  unfurl(message: GatewayMessageCreateDispatchData): void
  /** Opens a thread under the text channel and dispatches THREAD_CREATE; answers its id. */
  openThread(name: string, owner: Person): string
  stop(): Promise<void>
}

export function startFakeDiscord(options: FakeDiscordOptions = {}): FakeDiscord {
  const token = options.token ?? 'fake-bot-token'
  let origin = ''
  const world = new World({
    token,
    portalIntents: { messageContent: true, guildMembers: true, ...options.portalIntents },
    origin: () => origin,
    ...(options.crowd === undefined ? {} : { crowd: options.crowd }),
  })
  const gateway = new FakeGateway({
    world,
    heartbeatInterval: options.heartbeatInterval ?? 1_000,
    origin: () => origin,
  })
  const rest = new FakeRest({ world, gateway })
  const server = Bun.serve<GatewaySocketData>({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request, server) {
      const url = new URL(request.url)
      if (url.pathname === '/gateway' || url.pathname === '/resume') {
        const upgraded = server.upgrade(request, { data: { path: url.pathname, query: url.searchParams } })
        return upgraded ? undefined : new Response('Upgrade Required', { status: 426 })
      }
      return (await rest.handle(request)) ?? new Response('Not Found', { status: 404 })
    },
    websocket: {
      open: (socket) => gateway.open(socket),
      message: (socket, raw) => gateway.message(socket, raw),
      close: (socket, code) => gateway.close(socket, code),
    },
  })
  origin = `http://127.0.0.1:${server.port}`
  return {
    world,
    rest,
    gateway,
    restApi: `${origin}/api`,
    token,
    say(message) {
      const plain = world.message(message)
      const reply = message.replyTo
      const created: GatewayMessageCreateDispatchData =
        reply === undefined
          ? plain
          : {
              ...plain,
              type: MessageType.Reply,
              message_reference: {
                type: MessageReferenceType.Default,
                message_id: reply.id,
                channel_id: reply.channel_id,
                ...(reply.guild_id === undefined ? {} : { guild_id: reply.guild_id }),
              },
              referenced_message: withoutGatewayExtras(reply),
            }
      rest.rememberMessage(message.channelId, created.id)
      gateway.dispatch(GatewayDispatchEvents.MessageCreate, created)
      return created
    },
    edit(message, content) {
      const edited = { ...message, content, edited_timestamp: new Date().toISOString() }
      gateway.dispatch(GatewayDispatchEvents.MessageUpdate, edited satisfies GatewayMessageUpdateDispatchData)
      return edited
    },
    unfurl(message) {
      const embed = { type: EmbedType.Link, url: 'https://example.org/', title: 'Example' }
      const unfurled: GatewayMessageUpdateDispatchData = { ...message, embeds: [embed] }
      gateway.dispatch(GatewayDispatchEvents.MessageUpdate, unfurled)
    },
    openThread(name, owner) {
      const thread = world.openThread(name, owner)
      const created: GatewayThreadCreateDispatchData = { ...thread, newly_created: true }
      gateway.dispatch(GatewayDispatchEvents.ThreadCreate, created)
      return thread.id
    },
    async stop() {
      await server.stop(true)
    },
  }
}

/** A message as REST answers it: MESSAGE_CREATE's guild extras are gateway-only. */
function withoutGatewayExtras(message: GatewayMessageCreateDispatchData) {
  const { member: _member, guild_id: _guild, channel_type: _type, ...stored } = message
  return stored
}
