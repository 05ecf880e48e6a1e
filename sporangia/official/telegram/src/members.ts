import type { ChatMember, Update, User } from '@grammyjs/types'
import type { ChannelIdentity, SporeStorage } from '@mycelo/septum'
import type { Api } from 'grammy'
import { CHANNEL, displayNameOf } from './inbound.ts'

/** Statuses of someone who is in the group now. */
const PRESENT = new Set(['creator', 'administrator', 'member'])

/** At most this many getChatMember questions at once, to stay well under Telegram's limits. */
const ASKED_AT_ONCE = 5

const key = (chatId: string, userId: number | string) => `members/${chatId}/${userId}`

/**
 * A group's members as far as a bot can know them. The Bot API has no member list: it gives the
 * administrators, and tells of each member the bot sees write, join or leave. Those seen are kept
 * in the spore's storage, and each is asked about again (getChatMember) whenever the list is read,
 * so someone who left meanwhile is never answered as a member; a member the bot has never seen is
 * missing from the list until they write in the group or join it.
 */
export class GroupMembers {
  readonly #known = new Set<string>()

  constructor(
    private readonly api: Api,
    private readonly storage: SporeStorage,
  ) {}

  /** Learns from an update who is in a group now, or no longer. */
  async observe(update: Update): Promise<void> {
    const message = update.message ?? update.edited_message
    if (message !== undefined && (message.chat.type === 'group' || message.chat.type === 'supergroup')) {
      const chatId = String(message.chat.id)
      if (message.from !== undefined && !message.from.is_bot && message.sender_chat === undefined)
        await this.#add(chatId, message.from)
      for (const joined of message.new_chat_members ?? []) if (!joined.is_bot) await this.#add(chatId, joined)
      if (message.left_chat_member !== undefined) await this.#remove(chatId, message.left_chat_member.id)
    }
    const change = update.chat_member
    if (change !== undefined && !change.new_chat_member.user.is_bot) {
      const chatId = String(change.chat.id)
      if (isPresent(change.new_chat_member)) await this.#add(chatId, change.new_chat_member.user)
      else await this.#remove(chatId, change.new_chat_member.user.id)
    }
  }

  /** The administrators and every member seen, each confirmed with Telegram now. */
  async list(groupId: string): Promise<ChannelIdentity[]> {
    const chatId = Number(groupId)
    const admins = await this.api.getChatAdministrators(chatId)
    const members = new Map<string, ChannelIdentity>()
    for (const admin of admins)
      if (!admin.user.is_bot) members.set(String(admin.user.id), identity(admin.user))
    const seen = await this.storage.list<{ name: string }>(`members/${groupId}/`)
    const unconfirmed = seen
      .map((entry) => entry.key.slice(`members/${groupId}/`.length))
      .filter((userId) => !members.has(userId))
    for (let start = 0; start < unconfirmed.length; start += ASKED_AT_ONCE) {
      const batch = unconfirmed.slice(start, start + ASKED_AT_ONCE)
      const answers = await Promise.all(batch.map((userId) => this.#confirm(chatId, userId)))
      for (const member of answers)
        if (member !== undefined) members.set(String(member.user.id), identity(member.user))
    }
    return [...members.values()]
  }

  async #confirm(chatId: number, userId: string): Promise<ChatMember | undefined> {
    const member = await this.api.getChatMember(chatId, Number(userId))
    if (isPresent(member)) return member
    await this.#remove(String(chatId), userId)
    return undefined
  }

  async #add(chatId: string, user: User): Promise<void> {
    const entry = key(chatId, user.id)
    // Written once per person and run; a message from someone already known costs no write.
    if (this.#known.has(entry)) return
    await this.storage.set(entry, { name: displayNameOf(user) })
    this.#known.add(entry)
  }

  async #remove(chatId: string, userId: number | string): Promise<void> {
    this.#known.delete(key(chatId, userId))
    await this.storage.delete(key(chatId, userId))
  }
}

/** In the group now: a restricted member still is, until they leave. */
function isPresent(member: ChatMember): boolean {
  return PRESENT.has(member.status) || (member.status === 'restricted' && member.is_member)
}

function identity(user: User): ChannelIdentity {
  return { channel: CHANNEL, externalId: String(user.id), displayName: displayNameOf(user) }
}
