import type { ReactionTypeEmoji } from '@grammyjs/types'
import { type Attachment, attachmentBytes, type OutgoingContent, splitText } from '@mycelo/septum'
import { type Api, InputFile } from 'grammy'
import type { Place } from './inbound.ts'

/** Telegram refuses a text message longer than this. */
export const MESSAGE_LIMIT = 4_096

/** Telegram takes a photo up to 10 MB as a photo; larger, or another kind of file, goes as a document. */
const PHOTO_LIMIT = 10 * 1024 * 1024
const PHOTO_TYPES = /^image\/(jpeg|png|webp)$/

/** One Bot API call of a send, run in order through the hypha's rate-limit outbox. */
export interface SendStep {
  readonly label: string
  run(): Promise<void>
}

export interface SendPlan {
  readonly api: Api
  readonly place: Place
  readonly content: OutgoingContent
  /** The message being answered, quoted by the first message sent (groups, where replies interleave). */
  readonly replyTo?: number
}

/**
 * The calls that say `content` in a chat or forum topic: the reaction first, then the text in
 * Telegram-sized pieces, then each file as a photo or a document. Files are fetched here, so a step
 * that runs later (after a rate limit) only posts.
 */
export async function sendSteps(plan: SendPlan): Promise<SendStep[]> {
  const { api, place, content } = plan
  const chat = place.chatId
  const steps: SendStep[] = []
  const reactTo = content.reactTo
  if (reactTo !== undefined) {
    const reaction: ReactionTypeEmoji = { type: 'emoji', emoji: reactTo.emoji as ReactionTypeEmoji['emoji'] }
    steps.push({
      label: `reaction to ${reactTo.messageId} in ${chat}`,
      run: async () => void (await api.setMessageReaction(chat, Number(reactTo.messageId), [reaction])),
    })
  }
  let replyTo = plan.replyTo
  const where = () => {
    const options = {
      ...(place.threadId === undefined ? {} : { message_thread_id: place.threadId }),
      ...(replyTo === undefined
        ? {}
        : { reply_parameters: { message_id: replyTo, allow_sending_without_reply: true } }),
    }
    replyTo = undefined
    return options
  }
  for (const [index, text] of splitText(content.text ?? '', MESSAGE_LIMIT).entries()) {
    const options = where()
    steps.push({
      label: `message ${index + 1} to ${chat}`,
      run: async () => void (await api.sendMessage(chat, text, options)),
    })
  }
  const files = await Promise.all((content.attachments ?? []).map(toUpload))
  for (const [index, file] of files.entries()) {
    const options = where()
    const label = `file ${index + 1} to ${chat}`
    steps.push(
      file.asPhoto
        ? { label, run: async () => void (await api.sendPhoto(chat, file.input, options)) }
        : { label, run: async () => void (await api.sendDocument(chat, file.input, options)) },
    )
  }
  return steps
}

interface Upload {
  readonly input: InputFile
  readonly asPhoto: boolean
}

/** A file's upload: as a photo when Telegram takes it as one, else as a document. */
async function toUpload(attachment: Attachment, index: number): Promise<Upload> {
  const { bytes, name } = await attachmentBytes(attachment, { channel: 'telegram', index })
  const type = attachment.contentType ?? typeFromName(name)
  const asPhoto = type !== undefined && PHOTO_TYPES.test(type) && bytes.byteLength <= PHOTO_LIMIT
  return { input: new InputFile(bytes, name), asPhoto }
}

function typeFromName(name: string): string | undefined {
  const extension = name.toLowerCase().split('.').at(-1)
  if (extension === 'jpg' || extension === 'jpeg') return 'image/jpeg'
  if (extension === 'png') return 'image/png'
  if (extension === 'webp') return 'image/webp'
  return undefined
}
