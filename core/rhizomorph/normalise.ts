import type { IncomingMessage } from '@mycelo/septum'
import { z } from 'zod'

const id = z.string().min(1).max(512)

const messageSchema = z.object({
  channel: id,
  conversationId: id,
  messageId: id,
  group: z.object({ id, name: z.string().max(512).optional() }).optional(),
  sender: z.object({ channel: id, externalId: id, displayName: z.string().max(512).optional() }),
  text: z.string(),
  attachments: z
    .array(
      z.object({
        url: z.string().optional(),
        data: z.instanceof(Uint8Array).optional(),
        name: z.string().optional(),
        contentType: z.string().optional(),
        size: z.number().nonnegative().optional(),
      }),
    )
    .max(64)
    .default([]),
  raw: z.unknown(),
  receivedAt: z.coerce.date(),
})

export type Normalised = { ok: true; message: IncomingMessage } | { ok: false; problem: string }

/**
 * Checks what a hypha emitted before anything reads it. A hypha speaks only for its own channel:
 * a message claiming another channel, or a sender from one, would borrow someone else's identity.
 */
export function normalise(hypha: string, input: unknown, maxLength: number): Normalised {
  const parsed = messageSchema.safeParse(input)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : ''
    return { ok: false, problem: `malformed message: ${where}${issue?.message ?? 'invalid'}` }
  }
  const message = parsed.data as IncomingMessage
  if (message.channel !== hypha || message.sender.channel !== hypha) {
    return { ok: false, problem: `message claims channel "${message.channel}" but came from "${hypha}"` }
  }
  if (message.text.length > maxLength) {
    return {
      ok: false,
      problem: `message of ${message.text.length} characters is over the limit of ${maxLength}`,
    }
  }
  return { ok: true, message }
}
