import type { Attachment, IncomingMessage, Logger } from '@mycelo/septum'
import type { IRoomEvent, ISyncResponse, MatrixClient } from 'matrix-js-sdk'
import { describeFailure } from './client.ts'
import type { MatrixConfig } from './config.ts'
import { CHANNEL, conversationOf, type MediaRef, readMessage } from './inbound.ts'
import type { Rooms } from './rooms.ts'
import { worded } from './wording.ts'

export interface HearingOptions {
  readonly client: MatrixClient
  readonly config: MatrixConfig
  readonly selfId: string
  readonly rooms: Rooms
  readonly logger: Logger
  /** Hands a heard message to the core (without waiting for its handling). */
  readonly emit: (message: IncomingMessage) => void
}

/** How many event ids and message texts are remembered, to hear each once. */
const REMEMBERED = 2_000

/**
 * Reads each /sync: invitations accepted or declined by policy, rooms' state learnt (an encrypted
 * room is left, saying why), and each new message heard once, an edit again only when it changes
 * the text. The first sync ever is history: learnt from, never answered.
 */
export class Hearing {
  readonly #events = new Set<string>()
  readonly #texts = new Map<string, string>()

  constructor(private readonly options: HearingOptions) {}

  async hear(sync: ISyncResponse, catchingUp: boolean): Promise<void> {
    const rooms = sync.rooms ?? { invite: {}, join: {}, leave: {}, knock: {} }
    const direct = sync.account_data?.events.find((event) => event.type === 'm.direct')
    if (direct !== undefined) await this.options.rooms.learnDirect(direct.content)
    for (const [roomId, invited] of Object.entries(rooms.invite ?? {}))
      await this.#invited(roomId, invited.invite_state.events)
    for (const [roomId, joined] of Object.entries(rooms.join ?? {})) {
      const { rooms: known } = this.options
      const wasEncrypted = known.facts(roomId).encrypted === true
      const self = this.options.selfId
      await known.learn(roomId, joined.state?.events ?? [], self)
      const timeline = joined.timeline?.events ?? []
      await known.learn(roomId, timeline.filter((event) => 'state_key' in event) as never, self)
      if (!wasEncrypted && known.facts(roomId).encrypted === true) {
        await this.#leaveEncrypted(roomId, 'a member')
        continue
      }
      if (catchingUp) continue
      for (const event of timeline) await this.#message(roomId, event)
    }
    for (const roomId of Object.keys(rooms.leave ?? {})) await this.options.rooms.forget(roomId)
  }

  async #invited(
    roomId: string,
    state: readonly { type: string; state_key: string; sender: string; content: Record<string, unknown> }[],
  ): Promise<void> {
    const { client, config, selfId, rooms, logger } = this.options
    const invite = state.find((event) => event.type === 'm.room.member' && event.state_key === selfId)
    const inviter = invite?.sender ?? 'someone'
    if (state.some((event) => event.type === 'm.room.encryption'))
      return this.#leaveEncrypted(roomId, inviter)
    const policy = config.acceptInvites
    const accepted = policy === 'all' || (policy === 'listed' && config.inviters.includes(inviter))
    if (!accepted) {
      logger.warn(worded('invite_refused', { room: roomId, inviter, policy }))
      await client.leave(roomId).catch((error: unknown) =>
        logger.warn('matrix: the invitation could not be declined', {
          room: roomId,
          error: describeFailure(error),
        }),
      )
      return
    }
    await client.joinRoom(roomId)
    const name = state.find((event) => event.type === 'm.room.name')?.content.name
    await rooms.set(roomId, {
      ...(typeof name === 'string' ? { name } : {}),
      direct: invite?.content.is_direct === true,
    })
    logger.info('matrix: joined a room on invitation', { room: roomId, inviter })
  }

  async #leaveEncrypted(roomId: string, inviter: string): Promise<void> {
    const { client, rooms, logger } = this.options
    logger.error(worded('encrypted_refused', { room: roomId, inviter }))
    await client
      .leave(roomId)
      .catch((error: unknown) =>
        logger.warn('matrix: the room could not be left', { room: roomId, error: describeFailure(error) }),
      )
    await rooms.forget(roomId)
  }

  async #message(roomId: string, event: IRoomEvent): Promise<void> {
    const { selfId, rooms } = this.options
    // People only: never the bot's own messages (echoed back by /sync), which could start a loop.
    if (event.sender === selfId || !remember(this.#events, event.event_id)) return
    const read = readMessage(event)
    if (read === undefined) return
    const key = `${roomId} ${read.messageId}`
    if (read.edit && this.#texts.get(key) === read.text) return
    this.#texts.delete(key)
    this.#texts.set(key, read.text)
    if (this.#texts.size > REMEMBERED) this.#texts.delete(this.#texts.keys().next().value as string)
    const attachments = read.media === undefined || read.edit ? [] : [await this.#fetch(read.media)]
    if (read.text === '' && attachments.length === 0) return
    const facts = rooms.facts(roomId)
    this.options.emit({
      channel: CHANNEL,
      conversationId: conversationOf(roomId, read.threadRoot),
      messageId: read.messageId,
      ...(facts.direct === true
        ? {}
        : { group: { id: roomId, ...(facts.name === undefined ? {} : { name: facts.name }) } }),
      sender: {
        channel: CHANNEL,
        externalId: event.sender,
        displayName: rooms.displayName(roomId, event.sender),
      },
      text: read.text,
      attachments,
      raw: event,
      receivedAt: new Date(event.origin_server_ts),
    })
  }

  /** The file's bytes through authenticated media; too large or unreachable, its name, type and size only. */
  async #fetch(media: MediaRef): Promise<Attachment> {
    const { config, logger } = this.options
    const described: Attachment = {
      ...(media.name === undefined ? {} : { name: media.name }),
      ...(media.contentType === undefined ? {} : { contentType: media.contentType }),
      ...(media.size === undefined ? {} : { size: media.size }),
    }
    const limit = config.maxFileMegabytes * 1024 * 1024
    const parts = /^mxc:\/\/([^/]+)\/([^/?#]+)$/.exec(media.mxc)
    if (parts === null || (media.size !== undefined && media.size > limit)) {
      logger.warn(
        'matrix: a file is not fetched (too large, or not an mxc:// address); passed on without its bytes',
        { size: media.size },
      )
      return described
    }
    try {
      const base = config.homeserverUrl.replace(/\/+$/, '')
      const response = await fetch(`${base}/_matrix/client/v1/media/download/${parts[1]}/${parts[2]}`, {
        headers: { authorization: `Bearer ${config.accessToken}` },
      })
      if (!response.ok) throw new Error(`HTTP ${response.status} for the file`)
      const data = new Uint8Array(await response.arrayBuffer())
      if (data.byteLength > limit) throw new Error('the file is over maxFileMegabytes')
      return { ...described, data, size: data.byteLength }
    } catch (error) {
      logger.warn('matrix: a file could not be fetched; passed on without its bytes', {
        error: describeFailure(error),
      })
      return described
    }
  }
}

/** Adds to a bounded set; false when it was already there. */
function remember(seen: Set<string>, id: string): boolean {
  if (seen.has(id)) return false
  seen.add(id)
  if (seen.size > REMEMBERED) seen.delete(seen.values().next().value as string)
  return true
}
