import type {
  ChannelIdentity,
  DeliveryOptions,
  Health,
  Hypha,
  HyphaContext,
  OutgoingContent,
} from '@mycelo/septum'
import type { MatrixConfig } from './config.ts'
import type { MatrixHypha } from './hypha.ts'

/**
 * The hypha as the module hands it out: matrix-js-sdk (about a second and tens of MiB to import)
 * is loaded when the hypha is first used, so checking the settings of a Matrix not enabled never loads it.
 */
export class LazyMatrixHypha implements Hypha<MatrixConfig> {
  #loading: Promise<MatrixHypha> | undefined

  #hypha(): Promise<MatrixHypha> {
    this.#loading ??= import('./hypha.ts').then(({ MatrixHypha }) => new MatrixHypha())
    return this.#loading
  }

  async connect(ctx: HyphaContext<MatrixConfig>): Promise<void> {
    await (await this.#hypha()).connect(ctx)
  }

  async listen(): Promise<void> {
    await (await this.#hypha()).listen()
  }

  async stop(): Promise<void> {
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
