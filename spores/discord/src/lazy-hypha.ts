import type {
  ChannelIdentity,
  DeliveryOptions,
  Health,
  Hypha,
  HyphaContext,
  OutgoingContent,
} from '@mycelo/septum'
import type { DiscordConfig } from './config.ts'
import type { DiscordHypha } from './hypha.ts'

/**
 * The hypha as the module hands it out: discord.js (tens of MiB) is imported when the hypha is
 * first used, so checking the settings of a Discord that is not enabled never loads it.
 */
export class LazyDiscordHypha implements Hypha<DiscordConfig> {
  #loading: Promise<DiscordHypha> | undefined

  #hypha(): Promise<DiscordHypha> {
    this.#loading ??= import('./hypha.ts').then(({ DiscordHypha }) => new DiscordHypha())
    return this.#loading
  }

  async connect(ctx: HyphaContext<DiscordConfig>): Promise<void> {
    await (await this.#hypha()).connect(ctx)
  }

  async listen(): Promise<void> {
    await (await this.#hypha()).listen()
  }

  async stop(): Promise<void> {
    // Never used: there is nothing to stop, and nothing worth importing to find that out.
    if (this.#loading !== undefined) await (await this.#loading).stop()
  }

  async send(conversationId: string, content: OutgoingContent, delivery?: DeliveryOptions): Promise<void> {
    await (await this.#hypha()).send(conversationId, content, delivery)
  }

  async listGroupMembers(groupId: string): Promise<readonly ChannelIdentity[]> {
    return (await this.#hypha()).listGroupMembers(groupId)
  }

  async health(): Promise<Health> {
    return (await this.#hypha()).health()
  }
}
