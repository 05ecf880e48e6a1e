import {
  type APIAllowedMentions,
  type APIAttachment,
  type APIDMChannel,
  type APIGuildMember,
  type APIPublicThreadChannel,
  type APITextChannel,
  type APIUser,
  ApplicationFlags,
  ChannelType,
  type GatewayMessageCreateDispatchData,
  type GuildMemberFlags,
  MessageType,
} from 'discord.js'

/** Discord's epoch: snowflakes count milliseconds from the first second of 2015. */
const DISCORD_EPOCH = 1_420_070_400_000n

/** Which privileged intents the application has switched on in the developer portal. */
export interface PortalIntents {
  readonly messageContent: boolean
  readonly guildMembers: boolean
}

export interface WorldOptions {
  /** The only token the fake accepts. */
  readonly token: string
  readonly portalIntents: PortalIntents
  /** Base of the fake's own HTTP origin, for attachment URLs it hosts. */
  readonly origin: () => string
  /** Extra plain members, for a guild bigger than one page of the member list. */
  readonly crowd?: number
}

/** A user of the fake world, with the member fields Discord keeps per guild. */
interface Person {
  readonly user: APIUser
  readonly nick: string | null
}

/**
 * Everything the fake Discord knows: one application and its bot, one guild with a text channel
 * and a thread, a few people, and the messages sent so far.
 */
export class World {
  readonly token: string
  readonly portalIntents: PortalIntents
  readonly applicationId: string
  readonly bot: APIUser
  readonly guildId: string
  readonly guildName = 'Mycelium Lab'
  readonly textChannelId: string
  readonly threadId: string
  /** A role of the guild, which `<@&id>` pings when allowed. */
  readonly moderatorRoleId: string
  /** A human with a server nickname. */
  readonly alice: Person
  /** A human with a global display name and no nickname. */
  readonly bob: Person
  /** A human with only a username. */
  readonly carol: Person
  /** Another bot in the guild, whose messages a hypha must not answer. */
  readonly otherBot: Person
  readonly #origin: () => string
  #increment = 0n
  readonly #dmChannels = new Map<string, string>()
  /** Threads opened after GUILD_CREATE, which clients learn of from THREAD_CREATE. */
  readonly #openedThreads = new Map<string, APIPublicThreadChannel>()
  /** Until when (ms) the attachment URLs handed out are valid; the CDN refuses them after. */
  attachmentsValidUntil = Date.now() + 86_400_000
  readonly #crowd: readonly Person[]

  constructor(options: WorldOptions) {
    this.token = options.token
    this.portalIntents = options.portalIntents
    this.#origin = options.origin
    this.applicationId = this.snowflake()
    this.bot = user({ id: this.applicationId, username: 'mycelo', globalName: null, bot: true })
    this.guildId = this.snowflake()
    this.textChannelId = this.snowflake()
    this.threadId = this.snowflake()
    this.moderatorRoleId = this.snowflake()
    this.alice = { user: user({ id: this.snowflake(), username: 'alice', globalName: 'Alice' }), nick: 'Ali' }
    this.bob = { user: user({ id: this.snowflake(), username: 'bob', globalName: 'Bobby' }), nick: null }
    this.carol = { user: user({ id: this.snowflake(), username: 'carol', globalName: null }), nick: null }
    this.otherBot = {
      user: user({ id: this.snowflake(), username: 'helperbot', globalName: null, bot: true }),
      nick: null,
    }
    this.#crowd = Array.from({ length: options.crowd ?? 0 }, (_, index) => ({
      user: user({ id: this.snowflake(), username: `member${index}`, globalName: null }),
      nick: null,
    }))
  }

  /** A real snowflake: the timestamp in the high bits, so clients can derive createdAt from it. */
  snowflake(): string {
    this.#increment = (this.#increment + 1n) & 0xfffn
    return (((BigInt(Date.now()) - DISCORD_EPOCH) << 22n) | this.#increment).toString()
  }

  get people(): readonly Person[] {
    return [{ user: this.bot, nick: null }, this.alice, this.bob, this.carol, this.otherBot, ...this.#crowd]
  }

  /** The application flags the portal switches set; READY and /applications/@me carry them. */
  get applicationFlags(): number {
    let flags = 0
    if (this.portalIntents.messageContent) flags |= ApplicationFlags.GatewayMessageContent
    if (this.portalIntents.guildMembers) flags |= ApplicationFlags.GatewayGuildMembers
    return flags
  }

  member(person: Person): APIGuildMember {
    return {
      user: person.user,
      nick: person.nick,
      roles: [],
      joined_at: new Date(0).toISOString(),
      deaf: false,
      mute: false,
      // No flag set: the enum has no name for zero.
      flags: 0 as GuildMemberFlags,
    }
  }

  textChannel(): APITextChannel {
    return {
      id: this.textChannelId,
      type: ChannelType.GuildText,
      guild_id: this.guildId,
      name: 'general',
      position: 0,
      permission_overwrites: [],
      topic: null,
      nsfw: false,
      parent_id: null,
      last_message_id: null,
      rate_limit_per_user: 0,
    }
  }

  /** A new public thread under the text channel, as THREAD_CREATE carries it. */
  openThread(name: string, owner: Person): APIPublicThreadChannel {
    const thread = { ...this.thread(), id: this.snowflake(), name, owner_id: owner.user.id, member_count: 1 }
    this.#openedThreads.set(thread.id, thread)
    return thread
  }

  thread(): APIPublicThreadChannel {
    return {
      id: this.threadId,
      type: ChannelType.PublicThread,
      guild_id: this.guildId,
      parent_id: this.textChannelId,
      owner_id: this.alice.user.id,
      name: 'spore talk',
      last_message_id: null,
      rate_limit_per_user: 0,
      message_count: 0,
      member_count: 2,
      thread_metadata: {
        archived: false,
        auto_archive_duration: 1440,
        archive_timestamp: new Date().toISOString(),
        locked: false,
      },
      total_message_sent: 0,
    }
  }

  /** The DM channel between the bot and one user, created on first use like Discord's. */
  dmChannelId(userId: string): string {
    let id = this.#dmChannels.get(userId)
    if (id === undefined) {
      id = this.snowflake()
      this.#dmChannels.set(userId, id)
    }
    return id
  }

  dmChannel(channelId: string): APIDMChannel | undefined {
    for (const [userId, id] of this.#dmChannels) {
      if (id !== channelId) continue
      const recipient = this.people.find((person) => person.user.id === userId)?.user
      return {
        id,
        type: ChannelType.DM,
        name: null,
        last_message_id: null,
        recipients: recipient === undefined ? [] : [recipient],
      }
    }
    return undefined
  }

  /** Where a channel id lives: the guild's own channels, or a DM the fake has opened. */
  channel(channelId: string): APITextChannel | APIPublicThreadChannel | APIDMChannel | undefined {
    if (channelId === this.textChannelId) return this.textChannel()
    if (channelId === this.threadId) return this.thread()
    return this.#openedThreads.get(channelId) ?? this.dmChannel(channelId)
  }

  isGuildChannel(channelId: string): boolean {
    return channelId === this.textChannelId || this.isThread(channelId)
  }

  isThread(channelId: string): boolean {
    return channelId === this.threadId || this.#openedThreads.has(channelId)
  }

  /** An attachment the fake itself hosts, so a client can fetch it back. */
  attachment(options: { name: string; contentType: string; size: number }): APIAttachment {
    const id = this.snowflake()
    // Discord's CDN signs each URL with when it was issued (is), when it expires (ex), and a hash (hm).
    const hex = (ms: number) => Math.floor(ms / 1000).toString(16)
    const signed = `ex=${hex(this.attachmentsValidUntil)}&is=${hex(Date.now())}&hm=${id.slice(-8)}`
    const url = `${this.#origin()}/attachments/${id}/${encodeURIComponent(options.name)}?${signed}`
    return {
      id,
      filename: options.name,
      content_type: options.contentType,
      size: options.size,
      url,
      proxy_url: url,
    }
  }

  /**
   * Who a message pings, as Discord works it out from the content: `@everyone` and `@here`, `<@id>`
   * and `<@!id>` for people, `<@&id>` for roles, each kept only where `allowed_mentions` allows it.
   * Without `allowed_mentions`, everything written pings.
   */
  mentionsOf(content: string, allowed: APIAllowedMentions | undefined) {
    const parse = new Set(allowed === undefined ? ['everyone', 'users', 'roles'] : (allowed.parse ?? []))
    const users = new Set(allowed?.users ?? [])
    const roles = new Set(allowed?.roles ?? [])
    const userIds = [...content.matchAll(/<@!?(\d+)>/g)].map((match) => match[1] as string)
    const roleIds = [...content.matchAll(/<@&(\d+)>/g)].map((match) => match[1] as string)
    return {
      mention_everyone: /@(everyone|here)\b/.test(content) && parse.has('everyone'),
      mentions: this.people
        .map((person) => person.user)
        .filter((user) => userIds.includes(user.id) && (parse.has('users') || users.has(user.id))),
      mention_roles: [...new Set(roleIds)].filter(
        (id) => id === this.moderatorRoleId && (parse.has('roles') || roles.has(id)),
      ),
    }
  }

  /** A message as MESSAGE_CREATE carries it, with the guild extras for guild channels. */
  message(options: {
    channelId: string
    author: Person
    content: string
    attachments?: readonly APIAttachment[]
  }): GatewayMessageCreateDispatchData {
    const id = this.snowflake()
    const base = {
      id,
      channel_id: options.channelId,
      author: options.author.user,
      content: options.content,
      timestamp: new Date().toISOString(),
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions: [],
      mention_roles: [],
      attachments: [...(options.attachments ?? [])],
      embeds: [],
      pinned: false,
      type: MessageType.Default,
    }
    if (!this.isGuildChannel(options.channelId)) return { ...base, channel_type: ChannelType.DM }
    const { user: _user, ...member } = this.member(options.author)
    const channelType = this.isThread(options.channelId) ? ChannelType.PublicThread : ChannelType.GuildText
    return { ...base, guild_id: this.guildId, member, channel_type: channelType }
  }
}

function user(options: { id: string; username: string; globalName: string | null; bot?: boolean }): APIUser {
  return {
    id: options.id,
    username: options.username,
    discriminator: '0',
    global_name: options.globalName,
    avatar: null,
    ...(options.bot === true ? { bot: true } : {}),
  }
}

export type { Person }
