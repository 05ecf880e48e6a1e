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

/** One REST call of a send, run in order through the hypha's rate-limit queue. */
export interface SendStep {
  readonly label: string
  run(): Promise<void>
}

/**
 * Prepares content for a channel, DM or thread (a thread's id is its own channel id, so a reply
 * stays in it): the reaction first, then the text in order, split to Discord's limit; attachments
 * ride on the last piece of text, ten to a message. The channel is found and files downloaded
 * here, so a step that runs later only posts.
 */
export async function sendSteps(
  client: Client<true>,
  conversationId: string,
  content: OutgoingContent,
  deliveryId?: string,
): Promise<SendStep[]> {
  // A channel discord.js already holds is used at once; only an unknown one costs a fetch.
  const cached = client.channels.cache.get(conversationId)
  const channel =
    cached?.isSendable() && !cached.partial ? cached : await sendableChannel(client, conversationId)
  const steps: SendStep[] = []
  const reactTo = content.reactTo
  if (reactTo !== undefined) {
    steps.push({
      label: `reaction to ${reactTo.messageId}`,
      run: async () => void (await channel.messages.react(reactTo.messageId, reactTo.emoji)),
    })
  }
  const attachments = content.attachments ?? []
  const files = attachments.length === 0 ? [] : await Promise.all(attachments.map(toFile))
  for (const [index, message] of plan(splitText(content.text ?? ''), files).entries()) {
    // A message without files goes as plain JSON: discord.js prepares an upload for any files key.
    const payload = {
      ...(message.files?.length ? { ...message, files: [...message.files] } : { content: message.content }),
      ...nonceOf(deliveryId, index),
    }
    steps.push({
      label: `message ${index + 1} to ${conversationId}`,
      run: async () => void (await channel.send(payload)),
    })
  }
  return steps
}

/**
 * Discord keeps a nonce a few minutes and, with `enforce_nonce`, answers a second message carrying
 * it with the first instead of posting again: a retry after a crash is not shown twice.
 */
function nonceOf(deliveryId: string | undefined, index: number): { nonce?: string; enforceNonce?: boolean } {
  if (deliveryId === undefined) return {}
  return { nonce: `${deliveryId}-${index}`.slice(0, 25), enforceNonce: true }
}

/** How the operator knows a channel: `#name` with its id, or the DM's id. */
export function channelLabel(client: Client<true>, conversationId: string): string {
  const channel = client.channels.cache.get(conversationId)
  const name =
    channel !== undefined && 'name' in channel && typeof channel.name === 'string' ? channel.name : undefined
  return name === undefined ? `channel ${conversationId}` : `#${name} (${conversationId})`
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
