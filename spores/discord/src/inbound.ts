import type { Attachment, IncomingMessage } from '@mycelo/septum'
import type { Attachment as DiscordAttachment, Message } from 'discord.js'

/** The channel name every identity and message of this hypha carries. */
export const CHANNEL = 'discord'

export interface HearingRules {
  /** The bot's own user id. */
  readonly selfId: string
  /** Guild ids to serve; empty serves every guild. Direct messages are always heard. */
  readonly guilds: ReadonlySet<string>
}

/**
 * Whether a message is one to hand to the core: people only (never this bot, another bot or a
 * webhook, whose messages could start a loop between bots), no system notices, and only the
 * guilds the operator chose.
 */
export function isHeard(message: Message, rules: HearingRules): boolean {
  if (message.author.id === rules.selfId || message.author.bot) return false
  if (message.webhookId !== null || message.system) return false
  if (message.guildId !== null && rules.guilds.size > 0 && !rules.guilds.has(message.guildId)) return false
  return true
}

/** The septum's form of a Discord message; a thread's conversation is the thread itself. */
export function toIncomingMessage(message: Message): IncomingMessage {
  const guild = message.guild
  return {
    channel: CHANNEL,
    conversationId: message.channelId,
    messageId: message.id,
    ...(guild === null ? {} : { group: { id: guild.id, name: guild.name } }),
    sender: {
      channel: CHANNEL,
      externalId: message.author.id,
      displayName: message.member?.displayName ?? message.author.displayName,
    },
    text: message.content,
    attachments: message.attachments.map(toAttachment),
    raw: message,
    receivedAt: message.createdAt,
  }
}

function toAttachment(attachment: DiscordAttachment): Attachment {
  return {
    url: attachment.url,
    name: attachment.name,
    ...(attachment.contentType === null ? {} : { contentType: attachment.contentType }),
    size: attachment.size,
  }
}
