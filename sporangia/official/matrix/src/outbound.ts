import { type Attachment, attachmentBytes, type OutgoingContent, splitText } from '@mycelo/septum'
import type { MatrixClient } from 'matrix-js-sdk'
import { Method } from 'matrix-js-sdk/lib/matrix.js'

/** A Matrix event may hold 64 KiB; a piece of this many UTF-16 units stays under it in any script. */
export const MESSAGE_LIMIT = 16_000

/** One event of a send, run in order through the hypha's rate-limit outbox. */
export interface SendStep {
  readonly label: string
  run(): Promise<void>
}

export interface SendPlan {
  readonly client: MatrixClient
  readonly roomId: string
  readonly threadRoot?: string
  readonly content: OutgoingContent
  /** The event being answered, quoted by the first event sent (group rooms, where replies interleave). */
  readonly replyTo?: string
  /** The same for every try of this send: the homeserver drops a transaction id it has already seen. */
  readonly deliveryId?: string
}

/**
 * The events that say `content` in a room or thread: the reaction first, then the text in pieces,
 * then each file (uploaded here, so a step that runs later only sends). Each event's transaction id
 * comes from the delivery id, so a send the core retries is not shown twice.
 */
export async function sendSteps(plan: SendPlan): Promise<SendStep[]> {
  const { client, roomId, content } = plan
  const txnBase = plan.deliveryId ?? crypto.randomUUID().replaceAll('-', '')
  const events: { type: string; content: Record<string, unknown>; label: string }[] = []
  const reactTo = content.reactTo
  if (reactTo !== undefined) {
    events.push({
      type: 'm.reaction',
      content: {
        'm.relates_to': { rel_type: 'm.annotation', event_id: reactTo.messageId, key: reactTo.emoji },
      },
      label: `reaction to ${reactTo.messageId}`,
    })
  }
  let replyTo = plan.replyTo
  const related = (body: Record<string, unknown>) => {
    const relation = relationOf(plan.threadRoot, replyTo)
    replyTo = undefined
    return relation === undefined ? body : { ...body, 'm.relates_to': relation }
  }
  for (const text of splitText(content.text ?? '', MESSAGE_LIMIT)) {
    events.push({
      type: 'm.room.message',
      content: related({ msgtype: 'm.text', body: text }),
      label: 'text',
    })
  }
  for (const [index, attachment] of (content.attachments ?? []).entries()) {
    events.push({
      type: 'm.room.message',
      content: related(await uploaded(client, attachment, index)),
      label: `file ${index + 1}`,
    })
  }
  return events.map((event, index) => ({
    label: `${event.label} to ${roomId}`,
    run: async () => {
      const path = `/rooms/${encodeURIComponent(roomId)}/send/${encodeURIComponent(event.type)}/${txnBase}-${index}`
      await client.http.authedRequest(Method.Put, path, undefined, event.content)
    },
  }))
}

/** A thread (replying in it to the last message answered) or a plain reply, or nothing. */
function relationOf(
  threadRoot: string | undefined,
  replyTo: string | undefined,
): Record<string, unknown> | undefined {
  if (threadRoot !== undefined) {
    return {
      rel_type: 'm.thread',
      event_id: threadRoot,
      is_falling_back: replyTo === undefined,
      'm.in_reply_to': { event_id: replyTo ?? threadRoot },
    }
  }
  return replyTo === undefined ? undefined : { 'm.in_reply_to': { event_id: replyTo } }
}

/** Uploads a file's bytes (a URL is downloaded first; only http(s)) and answers its m.image or m.file content. */
async function uploaded(
  client: MatrixClient,
  attachment: Attachment,
  index: number,
): Promise<Record<string, unknown>> {
  const { bytes, name } = await attachmentBytes(attachment, { channel: 'matrix', index })
  const type = attachment.contentType ?? 'application/octet-stream'
  const { content_uri } = await client.uploadContent(new Blob([bytes], { type }), {
    name,
    type,
    includeFilename: true,
  })
  return {
    msgtype: type.startsWith('image/') ? 'm.image' : 'm.file',
    body: name,
    filename: name,
    url: content_uri,
    info: { mimetype: type, size: bytes.byteLength },
  }
}
