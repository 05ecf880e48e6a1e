import type { ChannelIdentity } from '@mycelo/septum'
import type { Client, GuildMember } from 'discord.js'
import { CHANNEL } from './inbound.ts'

/** The most members Discord answers in one page of the member list. */
const PAGE = 1_000

/**
 * Every member of a guild, paged through the REST member list (the Server Members intent lets
 * it answer), so each page waits its turn in discord.js's rate-limit queue.
 */
export async function listGuildMembers(client: Client<true>, guildId: string): Promise<ChannelIdentity[]> {
  const guild = client.guilds.cache.get(guildId)
  if (guild === undefined) throw new Error(`discord: the bot is not in a server with id ${guildId}`)
  const members: GuildMember[] = []
  let after: string | undefined
  for (;;) {
    const page = await guild.members.list({ limit: PAGE, ...(after === undefined ? {} : { after }) })
    members.push(...page.values())
    if (page.size < PAGE) break
    after = page.reduce((highest, member) => (BigInt(member.id) > BigInt(highest) ? member.id : highest), '0')
  }
  return members.map((member) => ({
    channel: CHANNEL,
    externalId: member.id,
    displayName: member.displayName,
  }))
}
