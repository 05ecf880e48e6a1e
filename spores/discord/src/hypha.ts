import {
  type ChannelIdentity,
  type DeliveryOptions,
  type Health,
  type Hypha,
  type HyphaContext,
  Outbox,
  type OutgoingContent,
  TemporaryFailure,
} from '@mycelo/septum'
import { type Client, DiscordAPIError, Events, type Message, RESTJSONErrorCodes } from 'discord.js'
import { type ConnectDeadlines, connectClient } from './client.ts'
import type { DiscordConfig } from './config.ts'
import { DiscordConnectError } from './connect-refusal.ts'
import { gatewayHealth } from './gateway-state.ts'
import { isHeard, toIncomingMessage } from './inbound.ts'
import { listGuildMembers } from './membership.ts'
import { channelLabel, type SendStep, sendSteps } from './outbound.ts'
import {
  isMissingPermission,
  isTemporarySendFailure,
  rateLimitWait,
  Troubles,
  troubleWords,
} from './troubles.ts'

export interface DiscordHyphaOptions {
  /** The wait before the first retry of a Discord that was unavailable; doubling up to maxMs. */
  readonly retry?: { readonly initialMs: number; readonly maxMs: number }
  /** How long a connect, and one REST call, may take before it counts as Discord being unavailable. */
  readonly deadlines?: ConnectDeadlines
}

/** Outbound messages that may wait for Discord's rate limit; one more is refused with a reason. */
const MAX_OUTBOX = 1_000

/** Where the hypha stands while it has no client: retrying an unavailable Discord, or refused for good. */
type Absence =
  | { readonly kind: 'retrying'; readonly reason: string; readonly attempt: number; readonly at: number }
  | { readonly kind: 'refused'; readonly reason: string }

/** The Discord channel: one bot account, its guilds, threads and direct messages. */
export class DiscordHypha implements Hypha<DiscordConfig> {
  #client: Client<true> | undefined
  #context: HyphaContext<DiscordConfig> | undefined
  #outbox: Outbox | undefined
  #listening = false
  #stopped = false
  #absence: Absence | undefined
  #timer: ReturnType<typeof setTimeout> | undefined
  readonly #troubles = new Troubles()
  readonly #inFlight = new Set<Promise<void>>()

  constructor(private readonly options: DiscordHyphaOptions = {}) {}

  /**
   * Rejects when Discord refuses (token, intents, a gateway that closes before READY). When Discord
   * is only unavailable (a 5xx, no route to it), resolves and keeps trying in the background.
   */
  async connect(ctx: HyphaContext<DiscordConfig>): Promise<void> {
    if (this.#client !== undefined) throw new Error('discord: connect() called while already connected')
    this.#context = ctx
    this.#stopped = false
    this.#outbox = new Outbox({
      logger: ctx.logger,
      limit: MAX_OUTBOX,
      retryAfterMs: rateLimitWait,
      channel: 'discord',
      limitedBy: 'Discord rate-limited the bot',
      full: (limit) => new TemporaryFailure(troubleWords('queue_full', { limit })),
    })
    try {
      this.#attach(await connectClient(ctx.config, ctx.logger, this.options.deadlines), ctx)
    } catch (error) {
      if (!(error instanceof DiscordConnectError) || !error.transient) throw error
      this.#retryLater(error, 1)
    }
  }

  async listen(): Promise<void> {
    if (this.#context === undefined) throw new Error('discord: listen() called before connect()')
    this.#listening = true
  }

  /** Stops hearing, lets messages already handed to the core finish (their replies included), then logs out. */
  async stop(): Promise<void> {
    this.#listening = false
    this.#stopped = true
    clearTimeout(this.#timer)
    await Promise.allSettled([...this.#inFlight])
    this.#outbox?.stop()
    const client = this.#client
    this.#client = undefined
    // Closing the socket ourselves is no drop: discord.js's close events are not reported as one.
    client?.removeAllListeners(Events.ShardReconnecting).removeAllListeners(Events.ShardDisconnect)
    await client?.destroy()
  }

  /**
   * Resolves once every piece is posted. A send takes its place in its conversation's line at once,
   * so sends made together leave in the order they were made; the channel is found and files read
   * when its turn comes, and after a rate limit it goes on from the piece Discord refused.
   */
  async send(conversationId: string, content: OutgoingContent, delivery?: DeliveryOptions): Promise<void> {
    const client = this.#connected('send()')
    const outbox = this.#outbox as Outbox
    let steps: SendStep[] | undefined
    let posted = 0
    const post = async () => {
      steps ??= await sendSteps(client, conversationId, content, delivery?.deliveryId)
      for (; posted < steps.length; posted += 1) {
        await this.#post(client, conversationId, steps[posted] as SendStep)
      }
    }
    await outbox.deliver(conversationId, post, `message to ${conversationId}`)
  }

  async listGroupMembers(groupId: string): Promise<readonly ChannelIdentity[]> {
    const served = this.#context?.config.guilds ?? []
    if (served.length > 0 && !served.includes(groupId)) {
      throw new Error(`discord: server ${groupId} is not one this hypha is configured to serve`)
    }
    try {
      const members = await listGuildMembers(this.#connected('listGroupMembers()'), groupId)
      this.#troubles.clear('members')
      return members
    } catch (error) {
      if (!(error instanceof DiscordAPIError) || error.code !== RESTJSONErrorCodes.MissingAccess) throw error
      const words = troubleWords('members_intent', { guild: groupId })
      this.#context?.logger.error(words, { guild: groupId })
      this.#troubles.note('members', words)
      throw new Error(words)
    }
  }

  async health(): Promise<Health> {
    const checkedAt = new Date()
    const absence = this.#absence
    if (this.#client === undefined && absence?.kind === 'retrying') {
      const seconds = Math.max(0, Math.ceil((absence.at - Date.now()) / 1000))
      const detail = `${absence.reason} Next try in ${seconds} s (attempt ${absence.attempt + 1}).`
      return { state: 'unreachable', detail, checkedAt }
    }
    if (this.#client === undefined && absence?.kind === 'refused') {
      return { state: 'unreachable', detail: absence.reason, checkedAt }
    }
    const waiting = this.#outbox?.rateLimited ?? 0
    const next = this.#outbox?.retryInSeconds
    const held = waiting === 0 ? [] : [troubleWords('rate_limited', { count: waiting, seconds: next ?? 0 })]
    return this.#troubles.over(gatewayHealth(this.#client), held)
  }

  /** The client; a TemporaryFailure while there is none, so the core keeps the message for later. */
  #connected(what: string): Client<true> {
    if (this.#client !== undefined) return this.#client
    const absence = this.#absence
    if (absence !== undefined)
      throw new TemporaryFailure(`discord: ${what} while not connected: ${absence.reason}`)
    throw new TemporaryFailure(`discord: ${what} called while not connected`)
  }

  #attach(client: Client<true>, ctx: HyphaContext<DiscordConfig>): void {
    this.#client = client
    this.#absence = undefined
    const guilds = new Set(ctx.config.guilds ?? [])
    client.on(Events.MessageCreate, (message) => this.#hear(message, guilds))
    // An edit that changes the text is heard again (an edited command is answered); other updates
    // of the same message (an embed unfurling) leave the text as it was and are not.
    client.on(Events.MessageUpdate, (before, after) => {
      if (!before.partial && before.content !== after.content) this.#hear(after, guilds)
    })
    this.#reportGateway(client, ctx)
    ctx.logger.info('discord connected', { bot: client.user.tag, guilds: client.guilds.cache.size })
    ctx.connection?.up()
  }

  /**
   * Tells the core of each drop the moment discord.js sees it (a close, or heartbeats left
   * unanswered on a socket that stays open), and of each return. When discord.js gives up, the
   * loss is the core's to retry: it stops this hypha and connects it again, with backoff.
   */
  #reportGateway(client: Client<true>, ctx: HyphaContext<DiscordConfig>): void {
    let attempt = 0
    const current = () => this.#client === client && !this.#stopped
    client.on(Events.ShardReconnecting, () => {
      if (current()) ctx.connection?.lost(troubleWords('gateway_dropped', {}), { attempt: ++attempt })
    })
    const back = () => {
      attempt = 0
      if (current()) ctx.connection?.up()
    }
    client.on(Events.ShardResume, back)
    client.on(Events.ShardReady, back)
    client.on(Events.ShardDisconnect, (event) => {
      if (current()) ctx.connection?.lost(troubleWords('gateway_gave_up', { code: event.code }))
    })
  }

  #retryLater(error: DiscordConnectError, attempt: number): void {
    const { initialMs, maxMs } = this.options.retry ?? { initialMs: 1_000, maxMs: 60_000 }
    const delay = Math.min(initialMs * 2 ** (attempt - 1), maxMs)
    this.#absence = { kind: 'retrying', reason: error.message, attempt, at: Date.now() + delay }
    this.#context?.connection?.lost(error.message, { attempt, inMs: delay })
    this.#context?.logger.warn('discord: Discord is unavailable; trying again', {
      attempt,
      retryInMs: delay,
      reason: error.message,
    })
    this.#timer = setTimeout(() => void this.#retry(attempt), delay)
  }

  async #retry(attempt: number): Promise<void> {
    const ctx = this.#context
    if (this.#stopped || ctx === undefined) return
    try {
      const client = await connectClient(ctx.config, ctx.logger, this.options.deadlines)
      if (this.#stopped) return void (await client.destroy())
      this.#attach(client, ctx)
      ctx.logger.info('discord: connected after Discord was unavailable', { attempts: attempt + 1 })
    } catch (error) {
      if (this.#stopped) return
      if (error instanceof DiscordConnectError && error.transient) return this.#retryLater(error, attempt + 1)
      const reason = error instanceof Error ? error.message : String(error)
      this.#absence = { kind: 'refused', reason }
      ctx.logger.error(reason, { attempts: attempt + 1 })
      // Refused for now (a token reset meanwhile): the core retries with its own backoff.
      ctx.connection?.lost(reason)
    }
  }

  /** Posts one step; a permission Discord refuses names the channel in the log and in /health. */
  async #post(client: Client<true>, conversationId: string, step: SendStep): Promise<void> {
    try {
      await step.run()
      this.#troubles.clear(`permission:${conversationId}`)
    } catch (error) {
      if (isTemporarySendFailure(error)) {
        throw new TemporaryFailure(`discord: ${step.label} not sent for now: ${String(error)}`)
      }
      if (!isMissingPermission(error)) throw error
      const where = channelLabel(client, conversationId)
      const words = troubleWords('missing_permission', { where, code: (error as DiscordAPIError).code })
      this.#context?.logger.error(words, { channel: conversationId })
      this.#troubles.note(`permission:${conversationId}`, words)
      throw new Error(words)
    }
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
