import type { Message, User } from '@grammyjs/types'

/** The channel name every identity and message of this hypha carries. */
export const CHANNEL = 'telegram'

/** A file a message carries, before it is fetched. */
export interface FileRef {
  readonly fileId: string
  readonly name?: string
  readonly contentType?: string
  readonly size?: number
}

/** Where a message was written: the chat, and the forum topic when it is in one. */
export interface Place {
  readonly chatId: number
  readonly threadId?: number
}

/** A forum topic is its own conversation, `<chat>/<topic>`, like a Discord thread is. */
export function conversationOf(place: Place): string {
  return place.threadId === undefined ? String(place.chatId) : `${place.chatId}/${place.threadId}`
}

/** The chat and topic a conversation id names, or undefined for one this hypha never made. */
export function placeOf(conversationId: string): Place | undefined {
  const match = /^(-?\d{1,20})(?:\/(\d{1,12}))?$/.exec(conversationId)
  if (match === null) return undefined
  const chatId = Number(match[1])
  return match[2] === undefined ? { chatId } : { chatId, threadId: Number(match[2]) }
}

export function placeOfMessage(message: Message): Place {
  // Replies in an ordinary group carry a thread id too; only a forum topic is a conversation of its own.
  return message.is_topic_message === true && message.message_thread_id !== undefined
    ? { chatId: message.chat.id, threadId: message.message_thread_id }
    : { chatId: message.chat.id }
}

export function isGroup(message: Message): boolean {
  return message.chat.type === 'group' || message.chat.type === 'supergroup'
}

export function displayNameOf(user: User): string {
  const full = [user.first_name, user.last_name].filter(Boolean).join(' ')
  return full || user.username || String(user.id)
}

/** What a person wrote: the text, or a photo's or document's caption. */
export function textOf(message: Message): string {
  return message.text ?? message.caption ?? ''
}

/** A leading `/command@name`: the command and the bot it names, so a command for another bot is left alone. */
const ADDRESSED = /^(\/[A-Za-z0-9_]+)@([A-Za-z0-9_]{1,64})(?=\s|$)/

/**
 * The text as the core should parse it: `/help@this_bot` becomes `/help`. Answers undefined for a
 * command addressed to another bot, which this one must not answer.
 */
export function addressedText(text: string, botUsername: string): string | undefined {
  const match = ADDRESSED.exec(text)
  if (match === null) return text
  if (match[2]?.toLowerCase() !== botUsername.toLowerCase()) return undefined
  return `${match[1]}${text.slice(match[0].length)}`
}

/** The files a message carries: the largest size of a photo, a document, and the other media kinds. */
export function filesOf(message: Message): FileRef[] {
  const files: FileRef[] = []
  const photo = message.photo?.reduce((best, size) =>
    size.width * size.height > best.width * best.height ? size : best,
  )
  if (photo !== undefined) {
    files.push({
      fileId: photo.file_id,
      name: `photo-${message.message_id}.jpg`,
      contentType: 'image/jpeg',
      ...sized(photo.file_size),
    })
  }
  // A GIF arrives as an animation and as a document with the same file: it is one attachment.
  const seen = new Set<string>()
  for (const media of [message.animation, message.document, message.video, message.audio, message.voice]) {
    if (media === undefined || seen.has(media.file_id)) continue
    seen.add(media.file_id)
    files.push({
      fileId: media.file_id,
      ...('file_name' in media && media.file_name !== undefined ? { name: media.file_name } : {}),
      ...(media.mime_type === undefined ? {} : { contentType: media.mime_type }),
      ...sized(media.file_size),
    })
  }
  return files
}

function sized(size: number | undefined): { size?: number } {
  return size === undefined ? {} : { size }
}
