import type { Chat, ChatMember, Message, Update, User, UserFromGetMe } from '@grammyjs/types'

/** A message as an update carries it: from a private chat or a group, never a channel. */
export type HeardMessage = NonNullable<Update['message']>

/** A person of the fake world: their Telegram user, and the private chat they have with the bot. */
export interface Person {
  readonly user: User
  readonly chat: Chat.PrivateChat
}

function person(id: number, first_name: string, last_name?: string): Person {
  const user: User = {
    id,
    is_bot: false,
    first_name,
    ...(last_name ? { last_name } : {}),
    language_code: 'en',
  }
  return { user, chat: { id, type: 'private', first_name, ...(last_name ? { last_name } : {}) } }
}

/**
 * The chats, people and files a fake Telegram knows: two people, a forum supergroup they share
 * (Alice administers it), and the files uploaded so far. Every payload it builds is typed with
 * Telegram's published types, so a shape Telegram does not send does not compile.
 */
export class World {
  readonly bot: UserFromGetMe = {
    id: 700_000_001,
    is_bot: true,
    first_name: 'Mycelo',
    username: 'mycelo_test_bot',
    can_join_groups: true,
    can_read_all_group_messages: false,
    supports_inline_queries: false,
    can_connect_to_business: false,
    has_main_web_app: false,
    has_topics_enabled: false,
    allows_users_to_create_topics: false,
    can_manage_bots: false,
    supports_join_request_queries: false,
  }
  /** The bot as a message's sender: a User, without what only getMe tells of it. */
  readonly botUser: User = {
    id: this.bot.id,
    is_bot: true,
    first_name: this.bot.first_name,
    username: this.bot.username,
  }
  readonly alice = person(1_001, 'Alice', 'Martin')
  readonly bob = person(1_002, 'Bob')
  readonly carol = person(1_003, 'Carol')
  readonly group: Chat.SupergroupChat = {
    id: -1_001_234_567_890,
    type: 'supergroup',
    title: 'Family',
    is_forum: true,
  }
  /** Status of each user in the group: Alice is its creator, Bob and Carol plain members. */
  readonly statuses = new Map<number, ChatMember['status']>([
    [this.alice.user.id, 'creator'],
    [this.bob.user.id, 'member'],
    [this.carol.user.id, 'member'],
  ])
  /** Users who blocked the bot: a send to their private chat is refused with 403. */
  readonly blocked = new Set<number>()
  /** Stored files: file_id → bytes and path. */
  readonly files = new Map<string, { readonly path: string; readonly bytes: Uint8Array }>()
  /** Every message of every chat so far, by `<chat id>:<message id>`, for the replies that quote one. */
  readonly #messages = new Map<string, Message>()
  #nextUpdate = 1
  #nextMessage = 100
  #nextFile = 1

  nextUpdateId(): number {
    return this.#nextUpdate++
  }

  /** Keeps a message, as Telegram does, so a reply to it can quote it. */
  keep<M extends Message>(message: M): M {
    this.#messages.set(`${message.chat.id}:${message.message_id}`, message)
    return message
  }

  /**
   * A message as a reply quotes it: whole, without the message it answers in turn (the types mark
   * that with `reply_to_message: undefined`, which JSON leaves out). Undefined for one never sent.
   */
  quoted(chatId: number, messageId: number): NonNullable<Message['reply_to_message']> | undefined {
    const message = this.#messages.get(`${chatId}:${messageId}`)
    return message === undefined ? undefined : { ...message, reply_to_message: undefined }
  }

  nextMessageId(): number {
    return this.#nextMessage++
  }

  storeFile(
    bytes: Uint8Array,
    extension: string,
  ): { file_id: string; file_unique_id: string; file_size: number } {
    const id = this.#nextFile++
    const file_id = `file-${id}`
    this.files.set(file_id, { path: `documents/file_${id}.${extension}`, bytes })
    return { file_id, file_unique_id: `unique-${id}`, file_size: bytes.byteLength }
  }

  chatMember(chatId: number, userId: number): ChatMember {
    const user = [this.alice, this.bob, this.carol].find((one) => one.user.id === userId)?.user ?? {
      id: userId,
      is_bot: false,
      first_name: `User ${userId}`,
    }
    const status = chatId === this.group.id ? (this.statuses.get(userId) ?? 'left') : 'left'
    if (status === 'creator') return { status, user, is_anonymous: false }
    if (status === 'administrator') {
      return {
        status,
        user,
        can_be_edited: false,
        is_anonymous: false,
        can_manage_chat: true,
        can_delete_messages: true,
        can_manage_video_chats: true,
        can_restrict_members: true,
        can_promote_members: false,
        can_change_info: true,
        can_invite_users: true,
        can_post_stories: false,
        can_edit_stories: false,
        can_delete_stories: false,
        can_manage_tags: false,
        can_send_welcome_messages: false,
      }
    }
    if (status === 'member') return { status, user }
    if (status === 'kicked') return { status, user, until_date: 0 }
    return { status: 'left', user }
  }

  /** A message from a person, in their private chat or the group (a forum topic when given). */
  message(options: {
    readonly from: Person
    readonly text?: string
    readonly inGroup?: boolean
    readonly topic?: number
    readonly extra?: Partial<Message>
  }): HeardMessage {
    const chat = options.inGroup || options.topic !== undefined ? this.group : options.from.chat
    // What `extra` adds (a photo, who joined) comes first: the message's own fields are the world's.
    return this.keep({
      ...options.extra,
      message_id: this.nextMessageId(),
      date: Math.floor(Date.now() / 1000),
      chat,
      from: options.from.user,
      ...(options.text === undefined ? {} : { text: options.text, ...commandEntity(options.text) }),
      ...(options.topic === undefined ? {} : { message_thread_id: options.topic, is_topic_message: true }),
    } satisfies HeardMessage)
  }

  update(fields: Omit<Update, 'update_id'>): Update {
    return { update_id: this.nextUpdateId(), ...fields }
  }
}

/** Telegram marks a leading /command (with its @bot) as a bot_command entity, as clients and grammY read it. */
function commandEntity(text: string): Pick<Message, 'entities'> {
  const command = /^\/[A-Za-z0-9_]{1,32}(@[A-Za-z0-9_]{1,64})?/.exec(text)
  return command === null ? {} : { entities: [{ type: 'bot_command', offset: 0, length: command[0].length }] }
}
