import type { Attachment, OutgoingContent } from '@mycelo/septum'
import {
  type AttachmentPayload,
  type Client,
  DiscordAPIError,
  RESTJSONErrorCodes,
  type SendableChannels,
} from 'discord.js'
import { splitText } from './split.ts'

/** Discord takes at most this many files on one message. */
const FILES_PER_MESSAGE = 10

interface Outgoing {
  readonly content?: string
  readonly files?: readonly AttachmentPayload[]
}

/**
 * Sends content into a channel, DM or thread (a thread's id is its own channel id, so a reply stays
 * in it). The reaction goes first, then the text in order, split to Discord's limit; attachments
 * ride on the last piece of text, ten to a message. Every call goes through discord.js's REST queue,
 * which waits out Discord's rate limits.
 */
export async function sendContent(
  client: Client<true>,
  conversationId: string,
  content: OutgoingContent,
): Promise<void> {
  // A channel discord.js already holds is used at once; only an unknown one costs a fetch.
  const cached = client.channels.cache.get(conversationId)
  const channel =
    cached?.isSendable() && !cached.partial ? cached : await sendableChannel(client, conversationId)
  if (content.reactTo !== undefined) {
    await channel.messages.react(content.reactTo.messageId, content.reactTo.emoji)
  }
  const attachments = content.attachments ?? []
  const files = attachments.length === 0 ? [] : await Promise.all(attachments.map(toFile))
  for (const message of plan(splitText(content.text ?? ''), files)) {
    // A message without files goes as plain JSON: discord.js prepares an upload for any files key.
    await channel.send(
      message.files?.length ? { ...message, files: [...message.files] } : { content: message.content },
    )
  }
}

async function sendableChannel(client: Client<true>, conversationId: string): Promise<SendableChannels> {
  const channel = await client.channels.fetch(conversationId).catch((error: unknown) => {
    if (error instanceof DiscordAPIError && error.code === RESTJSONErrorCodes.UnknownChannel) return null
    throw error
  })
  if (channel === null || !channel.isSendable()) {
    throw new Error(`discord: ${conversationId} is not a channel, thread or DM the bot can write to`)
  }
  return channel
}

/** The messages to send, in order: text pieces, the first batch of files on the last piece. */
function plan(texts: readonly string[], files: readonly AttachmentPayload[]): Outgoing[] {
  const batches: AttachmentPayload[][] = []
  for (let start = 0; start < files.length; start += FILES_PER_MESSAGE) {
    batches.push(files.slice(start, start + FILES_PER_MESSAGE))
  }
  const messages: Outgoing[] = texts.map((text) => ({ content: text }))
  const last = messages.at(-1)
  const [first, ...others] = batches
  if (last !== undefined && first !== undefined) messages[messages.length - 1] = { ...last, files: first }
  else if (first !== undefined) messages.push({ files: first })
  for (const batch of others) messages.push({ files: batch })
  return messages
}

/**
 * Bytes are uploaded as they are; a URL is downloaded here first, so a failed download is an error
 * rather than an error page uploaded under the file's name. Only http(s) is fetched: discord.js
 * would read any other string as a path on this machine.
 */
async function toFile(attachment: Attachment, index: number): Promise<AttachmentPayload> {
  if (attachment.data !== undefined) {
    return { attachment: Buffer.from(attachment.data), name: attachment.name ?? `attachment-${index + 1}` }
  }
  if (attachment.url === undefined) {
    throw new Error(`discord: attachment ${index + 1} has neither data nor a url`)
  }
  const url = new URL(attachment.url)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`discord: attachment ${index + 1} has a ${url.protocol} url; only http(s) is fetched`)
  }
  const response = await fetch(url)
  if (!response.ok) {
    throw new Error(`discord: attachment ${index + 1} could not be downloaded: HTTP ${response.status}`)
  }
  const name =
    attachment.name ?? decodeURIComponent(url.pathname.split('/').at(-1) || `attachment-${index + 1}`)
  return { attachment: Buffer.from(await response.arrayBuffer()), name }
}
