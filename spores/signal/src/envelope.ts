import type { Attachment, IncomingMessage } from '@mycelo/septum'
import { isRecord } from './transport/transport.ts'

export const CHANNEL = 'signal'

/** The prefix of a group conversation id; what follows is signal-cli's group id. */
export const GROUP_PREFIX = 'group:'

/**
 * What became of one receive payload: a message to emit, an envelope that carries none (typing,
 * receipts, deletes…), or one too malformed to read.
 */
export type Normalised =
  | { readonly kind: 'message'; readonly message: IncomingMessage }
  | { readonly kind: 'ignored'; readonly reason: string }
  | { readonly kind: 'malformed'; readonly reason: string }

export interface NormaliseOptions {
  /** The bot's own number: its own messages, and other accounts' in a multi-account daemon, are not heard. */
  readonly account: string
  /** Where a received attachment can be fetched, when the transport serves them. */
  readonly attachmentUrl?: (id: string) => string
}

type Fields = Readonly<Record<string, unknown>>

/** Turns one receive payload, `{ envelope, account }` as both transports deliver it, into a message. */
export function normaliseReceived(payload: unknown, options: NormaliseOptions): Normalised {
  if (!isRecord(payload)) return malformed('the payload is not an object')
  // A daemon in manual receive mode wraps each payload in a subscription result.
  const received = isRecord(payload.result) && 'subscription' in payload ? payload.result : payload
  if (typeof received.account === 'string' && received.account !== options.account) {
    return ignored(`addressed to another account (${received.account})`)
  }
  const envelope = received.envelope
  if (!isRecord(envelope)) return malformed('the payload has no envelope')
  return normaliseEnvelope(envelope, options)
}

function normaliseEnvelope(envelope: Fields, options: NormaliseOptions): Normalised {
  const data = envelope.dataMessage
  if (!isRecord(data)) return ignored(withoutMessage(envelope))
  if (isRecord(data.remoteDelete)) return ignored('a remote delete')
  if (isRecord(data.reaction)) return ignored('a reaction')

  const text = typeof data.message === 'string' ? data.message : ''
  const attachments = readAttachments(data.attachments, options)
  if (text === '' && attachments.length === 0) return ignored('a data message with no text or attachment')

  const senderId =
    nonEmpty(envelope.sourceUuid) ?? nonEmpty(envelope.sourceNumber) ?? nonEmpty(envelope.source)
  if (senderId === undefined) return malformed('the envelope names no sender')
  const senderNumber = nonEmpty(envelope.sourceNumber) ?? nonEmpty(envelope.source)
  if (senderNumber === options.account) return ignored('sent by the bot itself')
  const timestamp = finite(envelope.timestamp) ?? finite(data.timestamp)
  if (timestamp === undefined) return malformed('the envelope has no timestamp')

  const groupInfo = isRecord(data.groupInfo) ? data.groupInfo : undefined
  const groupId = nonEmpty(groupInfo?.groupId)
  const groupName = nonEmpty(groupInfo?.groupName)
  const displayName = nonEmpty(envelope.sourceName)
  const message: IncomingMessage = {
    channel: CHANNEL,
    conversationId: groupId === undefined ? senderId : `${GROUP_PREFIX}${groupId}`,
    // Author and timestamp are what Signal needs to target this message with a reaction later.
    messageId: `${senderId}:${timestamp}`,
    ...(groupId === undefined
      ? {}
      : { group: groupName === undefined ? { id: groupId } : { id: groupId, name: groupName } }),
    sender: { channel: CHANNEL, externalId: senderId, ...(displayName === undefined ? {} : { displayName }) },
    text,
    attachments,
    raw: envelope,
    receivedAt: new Date(timestamp),
  }
  return { kind: 'message', message }
}

function withoutMessage(envelope: Fields): string {
  if (isRecord(envelope.typingMessage)) return 'a typing indicator'
  if (isRecord(envelope.receiptMessage)) return 'a receipt'
  if (isRecord(envelope.syncMessage)) return 'a sync message from a linked device'
  return 'an envelope without a data message'
}

function readAttachments(value: unknown, options: NormaliseOptions): Attachment[] {
  if (!Array.isArray(value)) return []
  return value.filter(isRecord).map((entry) => {
    const id = nonEmpty(entry.id)
    const name = nonEmpty(entry.filename) ?? id
    const contentType = nonEmpty(entry.contentType)
    const size = finite(entry.size)
    const url =
      id !== undefined && options.attachmentUrl !== undefined ? options.attachmentUrl(id) : undefined
    return {
      ...(url === undefined ? {} : { url }),
      ...(name === undefined ? {} : { name }),
      ...(contentType === undefined ? {} : { contentType }),
      ...(size === undefined ? {} : { size }),
    }
  })
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}

function ignored(reason: string): Normalised {
  return { kind: 'ignored', reason }
}

function malformed(reason: string): Normalised {
  return { kind: 'malformed', reason }
}
