import type { Attachment, OutgoingContent } from '@mycelo/septum'

interface StoredAttachment extends Omit<Attachment, 'data'> {
  /** The bytes in base64, for an attachment sent rather than linked. */
  readonly base64?: string
}

interface StoredContent extends Omit<OutgoingContent, 'attachments'> {
  readonly attachments?: readonly StoredAttachment[]
}

/** OutgoingContent as the outbox table keeps it: JSON, attachment bytes in base64. */
export function encodeContent(content: OutgoingContent): string {
  if (content.attachments === undefined || content.attachments.length === 0) return JSON.stringify(content)
  const attachments = content.attachments.map(
    ({ data, ...rest }): StoredAttachment =>
      data === undefined ? rest : { ...rest, base64: Buffer.from(data).toString('base64') },
  )
  return JSON.stringify({ ...content, attachments } satisfies StoredContent)
}

/** The content a row was written from. */
export function decodeContent(json: string): OutgoingContent {
  const stored = JSON.parse(json) as StoredContent
  if (stored.attachments === undefined) return stored
  const attachments = stored.attachments.map(
    ({ base64, ...rest }): Attachment =>
      base64 === undefined ? rest : { ...rest, data: new Uint8Array(Buffer.from(base64, 'base64')) },
  )
  return { ...stored, attachments }
}
