import type { ChannelIdentity, Health, Hypha, HyphaContext, OutgoingContent } from '@mycelo/septum'
import { type Client, Events, type Message } from 'discord.js'
import { connectClient } from './client.ts'
import type { DiscordConfig } from './config.ts'
import { gatewayHealth } from './gateway-state.ts'
import { isHeard, toIncomingMessage } from './inbound.ts'
import { listGuildMembers } from './membership.ts'
import { sendContent } from './outbound.ts'

/** The Discord channel: one bot account, its guilds, threads and direct messages. */
export class DiscordHypha implements Hypha<DiscordConfig> {
  #client: Client<true> | undefined
  #context: HyphaContext<DiscordConfig> | undefined
  #listening = false
  readonly #inFlight = new Set<Promise<void>>()

  async connect(ctx: HyphaContext<DiscordConfig>): Promise<void> {
    if (this.#client !== undefined) throw new Error('discord: connect() called while already connected')
    const client = await connectClient(ctx.config, ctx.logger)
    this.#context = ctx
    this.#client = client
    const guilds = new Set(ctx.config.guilds ?? [])
    client.on(Events.MessageCreate, (message) => this.#hear(message, guilds))
    ctx.logger.info('discord connected', { bot: client.user.tag, guilds: client.guilds.cache.size })
  }

  async listen(): Promise<void> {
    if (this.#client === undefined) throw new Error('discord: listen() called before connect()')
    this.#listening = true
  }

  /** Stops hearing, lets messages already handed to the core finish (their replies included), then logs out. */
  async stop(): Promise<void> {
    this.#listening = false
    await Promise.allSettled([...this.#inFlight])
    const client = this.#client
    this.#client = undefined
    await client?.destroy()
  }

  async send(conversationId: string, content: OutgoingContent): Promise<void> {
    await sendContent(this.#connected('send()'), conversationId, content)
  }

  async listGroupMembers(groupId: string): Promise<readonly ChannelIdentity[]> {
    const served = this.#context?.config.guilds ?? []
    if (served.length > 0 && !served.includes(groupId)) {
      throw new Error(`discord: server ${groupId} is not one this hypha is configured to serve`)
    }
    return listGuildMembers(this.#connected('listGroupMembers()'), groupId)
  }

  async health(): Promise<Health> {
    return gatewayHealth(this.#client)
  }

  #connected(what: string): Client<true> {
    if (this.#client === undefined) throw new Error(`discord: ${what} called while not connected`)
    return this.#client
  }

  #hear(message: Message, guilds: ReadonlySet<string>): void {
    const client = this.#client
    const ctx = this.#context
    if (client === undefined || ctx === undefined) return
    if (!this.#listening) {
      ctx.logger.debug('discord: a message arrived before listen(); not emitted', { messageId: message.id })
      return
    }
    if (!isHeard(message, { selfId: client.user.id, guilds })) return
    const handled = ctx
      .emit(toIncomingMessage(message))
      .catch((error: unknown) =>
        ctx.logger.error('discord: the core failed to handle a message', {
          messageId: message.id,
          error: error instanceof Error ? error.message : String(error),
        }),
      )
      .finally(() => this.#inFlight.delete(handled))
    this.#inFlight.add(handled)
  }
}
