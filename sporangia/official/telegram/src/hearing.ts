import type { Message, Update, UserFromGetMe } from '@grammyjs/types'
import type { Attachment, IncomingMessage, Logger } from '@mycelo/septum'
import type { Api } from 'grammy'
import { describeFailure } from './api.ts'
import {
  addressedText,
  CHANNEL,
  conversationOf,
  displayNameOf,
  type FileRef,
  filesOf,
  isGroup,
  placeOfMessage,
  textOf,
} from './inbound.ts'

export interface HearingOptions {
  readonly api: Api
  readonly bot: UserFromGetMe
  /** Where files are fetched from: `<apiRoot>/file/bot<token>/<path>`. */
  readonly fileRoot: string
  readonly maxFileBytes: number
  readonly logger: Logger
}

/** How many update ids and message texts are remembered, to hear each once. */
const REMEMBERED = 2_000

/**
 * Turns Telegram updates into the septum's messages, each heard once: an update delivered twice
 * (a webhook retried, a poll repeated after a restart) is dropped, and an edit is heard again only
 * when it changes the text, so a command corrected by an edit is answered once.
 */
export class Hearing {
  readonly #updates = new Set<number>()
  readonly #texts = new Map<string, string>()

  constructor(private readonly options: HearingOptions) {}

  /** The message to emit for an update, or undefined when there is nothing new to hear. */
  async hear(update: Update): Promise<IncomingMessage | undefined> {
    if (!remember(this.#updates, update.update_id)) return undefined
    const message = update.message ?? update.edited_message
    if (message === undefined) return undefined
    const from = message.from
    // People only: never this bot, another bot (a loop between bots), nor a channel posting as itself.
    if (from === undefined || from.is_bot || message.sender_chat !== undefined) return undefined
    const typed = addressedText(textOf(message), this.options.bot.username)
    const files = filesOf(message)
    // A service message (someone joined, a pin) and a sticker say nothing the core could parse.
    if (typed === undefined || (typed === '' && files.length === 0)) return undefined
    const key = `${message.chat.id}:${message.message_id}`
    if (update.edited_message !== undefined && this.#texts.get(key) === typed) return undefined
    this.#texts.delete(key)
    this.#texts.set(key, typed)
    if (this.#texts.size > REMEMBERED) this.#texts.delete(this.#texts.keys().next().value as string)
    // A caption's edit changes no file: the files were handed on with the first version.
    const attachments = update.edited_message === undefined ? await this.#fetchAll(files) : []
    return {
      channel: CHANNEL,
      conversationId: conversationOf(placeOfMessage(message)),
      messageId: String(message.message_id),
      ...(isGroup(message) ? { group: groupOf(message) } : {}),
      sender: { channel: CHANNEL, externalId: String(from.id), displayName: displayNameOf(from) },
      text: typed,
      attachments,
      raw: update,
      receivedAt: new Date((message.edit_date ?? message.date) * 1000),
    }
  }

  #fetchAll(files: readonly FileRef[]): Promise<Attachment[]> {
    return Promise.all(files.map((file) => this.#fetch(file)))
  }

  /**
   * The file's bytes: a Telegram file URL carries the bot token, so the bytes are handed on rather
   * than the URL. A file over the size setting, or one that cannot be fetched, keeps its name,
   * type and size only, and the log says why.
   */
  async #fetch(file: FileRef): Promise<Attachment> {
    const described: Attachment = {
      ...(file.name === undefined ? {} : { name: file.name }),
      ...(file.contentType === undefined ? {} : { contentType: file.contentType }),
      ...(file.size === undefined ? {} : { size: file.size }),
    }
    if (file.size !== undefined && file.size > this.options.maxFileBytes) {
      this.options.logger.warn(
        'telegram: a file is larger than maxFileMegabytes; passed on without its bytes',
        {
          size: file.size,
        },
      )
      return described
    }
    try {
      const found = await this.options.api.getFile(file.fileId)
      if (found.file_path === undefined) throw new Error('Telegram gave no file path')
      const data = await this.#download(found.file_path)
      return { ...described, data, size: data.byteLength }
    } catch (error) {
      this.options.logger.warn('telegram: a file could not be fetched; passed on without its bytes', {
        error: describeFailure(error),
      })
      return described
    }
  }

  async #download(path: string): Promise<Uint8Array> {
    // A self-hosted Bot API server in --local mode answers a path on its own disk.
    if (path.startsWith('/')) return new Uint8Array(await Bun.file(path).arrayBuffer())
    const response = await fetch(`${this.options.fileRoot}/${path}`)
    if (!response.ok) throw new Error(`HTTP ${response.status} for the file`)
    const bytes = new Uint8Array(await response.arrayBuffer())
    if (bytes.byteLength > this.options.maxFileBytes) throw new Error('the file is over maxFileMegabytes')
    return bytes
  }
}

function groupOf(message: Message): { id: string; name?: string } {
  const title = 'title' in message.chat ? message.chat.title : undefined
  return title === undefined ? { id: String(message.chat.id) } : { id: String(message.chat.id), name: title }
}

/** Adds to a bounded set; false when it was already there. */
function remember(seen: Set<number>, id: number): boolean {
  if (seen.has(id)) return false
  seen.add(id)
  if (seen.size > REMEMBERED) seen.delete(seen.values().next().value as number)
  return true
}
