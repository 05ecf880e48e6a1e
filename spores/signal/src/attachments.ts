import type { Attachment, IncomingMessage, Logger } from '@mycelo/septum'
import { isRecord, type Recipient, type TransportSession } from './transport/transport.ts'

export interface FetchOptions {
  /** The live session, when there is one that can fetch attachments by id. */
  readonly session: TransportSession | undefined
  /** A received attachment larger than this arrives with its name and size, without its bytes. */
  readonly maxBytes: number
  readonly logger: Logger
}

/**
 * The daemon announces a received attachment by its id only; its bytes are fetched here
 * (getAttachment) so spores receive the file. One that is too large, or cannot be fetched, still
 * arrives with its name, type and size, and the log says why its bytes are missing.
 */
export async function withAttachmentBytes(
  message: IncomingMessage,
  options: FetchOptions,
): Promise<IncomingMessage> {
  const fetch = options.session?.attachment?.bind(options.session)
  if (fetch === undefined || message.attachments.every((attachment) => attachment.url !== undefined)) {
    return message
  }
  const ids = announcedIds(message.raw)
  const from: Recipient =
    message.group === undefined
      ? { kind: 'person', id: message.sender.externalId }
      : { kind: 'group', groupId: message.group.id }
  const attachments = await Promise.all(
    message.attachments.map(async (attachment, index): Promise<Attachment> => {
      const id = ids[index]
      if (attachment.url !== undefined || attachment.data !== undefined || id === undefined) return attachment
      const refuse = (why: string): Attachment => {
        options.logger.warn('signal: a received attachment arrives without its bytes', {
          messageId: message.messageId,
          attachment: attachment.name ?? id,
          why,
        })
        return attachment
      }
      if ((attachment.size ?? 0) > options.maxBytes) return refuse(`larger than ${options.maxBytes} bytes`)
      try {
        const data = await fetch(id, from)
        if (data.length > options.maxBytes) return refuse(`larger than ${options.maxBytes} bytes`)
        return { ...attachment, data, size: data.length }
      } catch (error) {
        return refuse(error instanceof Error ? error.message : String(error))
      }
    }),
  )
  return { ...message, attachments }
}

/** The ids of the envelope's attachments, in the order the message lists them. */
function announcedIds(raw: unknown): (string | undefined)[] {
  const data = isRecord(raw) && isRecord(raw.dataMessage) ? raw.dataMessage : undefined
  if (!Array.isArray(data?.attachments)) return []
  return data.attachments
    .filter(isRecord)
    .map((entry) => (typeof entry.id === 'string' && entry.id !== '' ? entry.id : undefined))
}
