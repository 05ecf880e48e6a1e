import type { Attachment } from '@mycelo/septum'
import { GROUP_PREFIX } from './envelope.ts'
import type { OutboundReaction, Recipient } from './transport/transport.ts'

/** Signal's own ceiling for one attachment; a linked file larger than this is refused before download. */
const MAX_ATTACHMENT_BYTES = 100 * 1024 * 1024

/** A conversation id as the normaliser makes them: a person's uuid, or `group:<id>`. */
export function recipientOf(conversationId: string): Recipient {
  if (conversationId.startsWith(GROUP_PREFIX)) {
    const groupId = conversationId.slice(GROUP_PREFIX.length)
    if (groupId === '') throw new Error('cannot send to "group:": the group id is missing')
    return { kind: 'group', groupId }
  }
  if (conversationId.trim() === '') throw new Error('cannot send to an empty conversation id')
  return { kind: 'person', id: conversationId }
}

/** A message id is `<author>:<timestamp>`, exactly what a Signal reaction needs to target it. */
export function reactionOf(messageId: string, emoji: string): OutboundReaction {
  const colon = messageId.lastIndexOf(':')
  const targetAuthor = messageId.slice(0, colon)
  const targetTimestamp = Number(messageId.slice(colon + 1))
  if (colon <= 0 || !Number.isSafeInteger(targetTimestamp) || targetTimestamp <= 0) {
    throw new Error(`cannot react to "${messageId}": a Signal message id is <author>:<timestamp>`)
  }
  if (emoji === '') throw new Error(`cannot react to "${messageId}" with an empty emoji`)
  return { emoji, targetAuthor, targetTimestamp }
}

/** `data:<type>;filename=<name>;base64,<bytes>`: how both signal-cli and the REST API take a file. */
export async function dataUriOf(attachment: Attachment): Promise<string> {
  const bytes = attachment.data ?? (await download(attachment))
  // signal-cli reads the name out of the URI's parameters, so one of the type's own (`; charset=`) loses it.
  const contentType = attachment.contentType?.split(';')[0]?.trim() || 'application/octet-stream'
  // `;` and `,` delimit the URI's own fields, so a name containing them would cut it short.
  const name = attachment.name === undefined ? '' : `;filename=${attachment.name.replace(/[;,]/g, '_')}`
  return `data:${contentType}${name};base64,${Buffer.from(bytes).toString('base64')}`
}

async function download(attachment: Attachment): Promise<Uint8Array> {
  const url = attachment.url
  if (url === undefined) throw new Error('cannot send an attachment with neither data nor a url')
  if (!/^https?:\/\//i.test(url))
    throw new Error(`cannot fetch the attachment at ${url}: only http(s) is supported`)
  const response = await fetch(url)
  if (!response.ok) throw new Error(`cannot fetch the attachment at ${url}: HTTP ${response.status}`)
  const declared = Number(response.headers.get('content-length') ?? '0')
  if (declared > MAX_ATTACHMENT_BYTES) {
    await response.body?.cancel()
    throw new Error(`the attachment at ${url} is larger than Signal's 100 MiB limit`)
  }
  const bytes = new Uint8Array(await response.arrayBuffer())
  if (bytes.length > MAX_ATTACHMENT_BYTES)
    throw new Error(`the attachment at ${url} is larger than Signal's 100 MiB limit`)
  return bytes
}
