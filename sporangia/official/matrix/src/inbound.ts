import type { IRoomEvent } from 'matrix-js-sdk'

/** The channel name every identity and message of this hypha carries. */
export const CHANNEL = 'matrix'

/** A thread is its own conversation, `<room>/<thread root>`, like a Discord thread is. */
export function conversationOf(roomId: string, threadRoot?: string): string {
  return threadRoot === undefined ? roomId : `${roomId}/${threadRoot}`
}

/** The room and thread a conversation id names; a room id never holds `/$`, an event id starts with `$`. */
export function placeOf(conversationId: string): { roomId: string; threadRoot?: string } | undefined {
  const at = conversationId.indexOf('/$')
  const roomId = at === -1 ? conversationId : conversationId.slice(0, at)
  if (!/^![^\s/]+:\S+$/.test(roomId)) return undefined
  return at === -1 ? { roomId } : { roomId, threadRoot: conversationId.slice(at + 1) }
}

/** The file a message points at, before it is fetched. */
export interface MediaRef {
  readonly mxc: string
  readonly name?: string
  readonly contentType?: string
  readonly size?: number
}

/** What one m.room.message event says, once its relations are read. */
export interface ReadMessage {
  /** The event the message is (for an edit: the event it replaces). */
  readonly messageId: string
  readonly text: string
  readonly threadRoot?: string
  readonly edit: boolean
  readonly media?: MediaRef
}

const MEDIA_TYPES = new Set(['m.image', 'm.file', 'm.video', 'm.audio'])

/** Reads an m.room.message: its text without a reply's quoted fallback, its thread, edit and file. */
export function readMessage(event: IRoomEvent): ReadMessage | undefined {
  if (event.type !== 'm.room.message') return undefined
  const relation = event.content['m.relates_to'] as
    | { rel_type?: string; event_id?: string; 'm.in_reply_to'?: { event_id?: string } }
    | undefined
  const edit = relation?.rel_type === 'm.replace' && typeof relation.event_id === 'string'
  // An edit carries the new content in m.new_content; its own body is a "* " fallback.
  const content = (edit ? event.content['m.new_content'] : event.content) as
    | Record<string, unknown>
    | undefined
  if (content === undefined || typeof content.body !== 'string') return undefined
  const threadRoot =
    relation?.rel_type === 'm.thread' && typeof relation.event_id === 'string' ? relation.event_id : undefined
  const replying = relation?.['m.in_reply_to'] !== undefined
  const msgtype = String(content.msgtype ?? '')
  const media = MEDIA_TYPES.has(msgtype) && typeof content.url === 'string' ? mediaOf(content) : undefined
  // A file's body is its name, not something said.
  const text = media !== undefined ? '' : replying ? withoutReplyFallback(content.body) : content.body
  return {
    messageId: edit ? String(relation?.event_id) : event.event_id,
    text,
    edit,
    ...(threadRoot === undefined ? {} : { threadRoot }),
    ...(media === undefined ? {} : { media }),
  }
}

/** A reply's body starts with the quoted message (`> ` lines, then a blank line): the command comes after. */
export function withoutReplyFallback(body: string): string {
  const lines = body.split('\n')
  let index = 0
  while (index < lines.length && lines[index]?.startsWith('>')) index += 1
  if (index === 0) return body
  if (lines[index] === '') index += 1
  return lines.slice(index).join('\n')
}

function mediaOf(content: Record<string, unknown>): MediaRef {
  const info = (content.info ?? {}) as { mimetype?: unknown; size?: unknown }
  const name = typeof content.filename === 'string' ? content.filename : String(content.body)
  return {
    mxc: String(content.url),
    name,
    ...(typeof info.mimetype === 'string' ? { contentType: info.mimetype } : {}),
    ...(typeof info.size === 'number' ? { size: info.size } : {}),
  }
}
