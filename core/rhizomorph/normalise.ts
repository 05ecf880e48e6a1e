import type { Attachment, IncomingMessage } from '@mycelo/septum'

/** The message as the core keeps it, or what is wrong with it (a message is an object, a problem a string). */
export type Normalised = IncomingMessage | string

/** Longest id, name or display name a hypha may hand over. */
const MAX_ID = 512
/** Most attachments one message may carry. */
const MAX_ATTACHMENTS = 64

/**
 * Checks what a hypha emitted before anything reads it, field by field: this runs for every
 * message, so it is a few plain checks rather than a schema walk. A hypha speaks only for its own
 * channel: a message claiming another channel, or a sender from one, would borrow someone's identity.
 * The message itself is the result, with no object around it: this runs for every message.
 */
export function normalise(hypha: string, input: unknown, maxLength: number): Normalised {
  if (!isRecord(input)) return malformed('', 'expected a message object')
  const problem =
    idProblem(input, 'channel') ??
    idProblem(input, 'conversationId') ??
    idProblem(input, 'messageId') ??
    groupProblem(input.group) ??
    senderProblem(input.sender) ??
    (typeof input.text === 'string' ? undefined : 'text: expected a string') ??
    attachmentsProblem(input.attachments)
  if (problem) return `malformed message: ${problem}`
  const receivedAt =
    input.receivedAt instanceof Date ? input.receivedAt : new Date(input.receivedAt as string)
  if (Number.isNaN(receivedAt.getTime())) return malformed('receivedAt', 'expected a date')
  const message = normalForm(input as unknown as IncomingMessage, receivedAt)
  if (message.channel !== hypha) {
    return `message claims channel "${message.channel}" but came from "${hypha}"`
  }
  if (message.sender.channel !== hypha) {
    return `sender claims channel "${message.sender.channel}" but came from "${hypha}"`
  }
  if (message.text.length > maxLength) {
    return `message of ${message.text.length} characters is over the limit of ${maxLength}`
  }
  return message
}

/**
 * The message as the core keeps it: its own object, so the hypha cannot change it on its way, with
 * the contract's fields only, each named (one object of one shape per message, not a spread copy).
 */
function normalForm(input: IncomingMessage, receivedAt: Date): IncomingMessage {
  const { channel, conversationId, messageId, group, sender, text, raw } = input
  const attachments = input.attachments ?? []
  return group === undefined
    ? { channel, conversationId, messageId, sender, text, attachments, raw, receivedAt }
    : { channel, conversationId, messageId, group, sender, text, attachments, raw, receivedAt }
}

function malformed(path: string, what: string): string {
  return `malformed message: ${path ? `${path}: ` : ''}${what}`
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function idProblem(record: Record<string, unknown>, key: string, path = key): string | undefined {
  const value = record[key]
  if (typeof value !== 'string' || value.length === 0) return `${path}: expected a non-empty string`
  if (value.length > MAX_ID) return `${path}: longer than ${MAX_ID} characters`
  return undefined
}

function optionalName(record: Record<string, unknown>, key: string, path: string): string | undefined {
  const value = record[key]
  if (value === undefined) return undefined
  if (typeof value !== 'string') return `${path}: expected a string`
  return value.length > MAX_ID ? `${path}: longer than ${MAX_ID} characters` : undefined
}

function groupProblem(group: unknown): string | undefined {
  if (group === undefined) return undefined
  if (!isRecord(group)) return 'group: expected an object'
  return idProblem(group, 'id', 'group.id') ?? optionalName(group, 'name', 'group.name')
}

function senderProblem(sender: unknown): string | undefined {
  if (!isRecord(sender)) return 'sender: expected an object'
  return (
    idProblem(sender, 'channel', 'sender.channel') ??
    idProblem(sender, 'externalId', 'sender.externalId') ??
    optionalName(sender, 'displayName', 'sender.displayName')
  )
}

function attachmentsProblem(attachments: unknown): string | undefined {
  if (attachments === undefined) return undefined
  if (!Array.isArray(attachments)) return 'attachments: expected a list'
  if (attachments.length > MAX_ATTACHMENTS) return `attachments: more than ${MAX_ATTACHMENTS}`
  for (const [index, attachment] of (attachments as unknown[]).entries()) {
    const problem = attachmentProblem(attachment)
    if (problem) return `attachments.${index}${problem}`
  }
  return undefined
}

function attachmentProblem(attachment: unknown): string | undefined {
  if (!isRecord(attachment)) return ': expected an object'
  const a = attachment as Partial<Record<keyof Attachment, unknown>>
  for (const key of ['url', 'name', 'contentType'] as const) {
    if (a[key] !== undefined && typeof a[key] !== 'string') return `.${key}: expected a string`
  }
  if (a.data !== undefined && !(a.data instanceof Uint8Array)) return '.data: expected bytes'
  if (a.size !== undefined && (typeof a.size !== 'number' || a.size < 0)) return '.size: expected a size'
  return undefined
}
