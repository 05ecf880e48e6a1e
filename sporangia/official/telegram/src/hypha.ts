import { AsyncLocalStorage } from 'node:async_hooks'
import type { Update, UserFromGetMe } from '@grammyjs/types'
import {
  type Backoff,
  type ChannelIdentity,
  type Health,
  type Hypha,
  type HyphaContext,
  type IncomingMessage,
  Outbox,
  type OutgoingContent,
  type PollState,
  type RouteHandler,
  TemporaryFailure,
} from '@mycelo/septum'
import type { Api } from 'grammy'
import {
  apiRootOf,
  createApi,
  describeFailure,
  isForbidden,
  isTokenRejected,
  isUnreachable,
  retryAfterMs,
} from './api.ts'
import { CommandMenu, type MenuMycelium } from './commands.ts'
import { type TelegramConfig, webhookEndpoint } from './config.ts'
import { Hearing } from './hearing.ts'
import { placeOf } from './inbound.ts'
import { GroupMembers } from './members.ts'
import { type SendStep, sendSteps } from './outbound.ts'
import { type TelegramPolling, telegramPolling } from './polling.ts'
import { carriesSecret, registerWebhook, updateOf, WebhookHealth, webhookSecret } from './webhook.ts'
import { TelegramConnectError, worded } from './wording.ts'

export interface TelegramHyphaOptions {
  readonly backoff?: Backoff
  /** How long one getUpdates waits at Telegram; 30 s unless a test needs it shorter. */
  readonly pollTimeoutSeconds?: number
  /** At most one write of the polling offset in this long; a second unless a test needs otherwise. */
  readonly keepOffsetEveryMs?: number
}

/** Outbound messages that may wait for Telegram's rate limit; one more is refused with a reason. */
const MAX_OUTBOX = 100

/** The message a send answers, known while the core handles it (a reply quotes it in a group). */
const answering = new AsyncLocalStorage<{ readonly conversationId: string; readonly messageId: number }>()

interface Connected {
  readonly ctx: HyphaContext<TelegramConfig>
  readonly api: Api
  readonly bot: UserFromGetMe
  readonly hearing: Hearing
  readonly members: GroupMembers
  readonly menu: CommandMenu
  readonly outbox: Outbox
  readonly webhook?: { readonly url: string; readonly secret: string; readonly health: WebhookHealth }
}

/** The Telegram channel: one bot account, its private chats, groups and forum topics. */
export class TelegramHypha implements Hypha<TelegramConfig> {
  #on: Connected | undefined
  #polling: TelegramPolling | undefined
  #pollingState: PollState | undefined
  #listening = false
  /** Chats Telegram refused to deliver to (403), with why: nothing is sent there until they write again. */
  readonly #forbidden = new Map<number, string>()
  readonly #inFlight = new Set<Promise<void>>()
  readonly routes: Readonly<Record<string, RouteHandler>> = {
    update: (request) => this.#webhookCall(request),
  }

  constructor(private readonly options: TelegramHyphaOptions = {}) {}

  /** Checks the token (getMe), then sets up how updates arrive: a webhook when configured, else polling. */
  async connect(ctx: HyphaContext<TelegramConfig>): Promise<void> {
    if (this.#on !== undefined) throw new Error('telegram: connect() called while already connected')
    const { config, logger } = ctx
    const api = createApi(config)
    const bot = await api.getMe().catch((error: unknown) => {
      throw connectError(error, apiRootOf(config))
    })
    const url = webhookEndpoint(config)
    let webhook: Connected['webhook']
    if (url === undefined) {
      // A webhook left from before (or set by another program) would refuse every getUpdates.
      const info = await api.getWebhookInfo()
      if ((info.url ?? '') !== '') {
        await api.deleteWebhook()
        logger.info('telegram: removed the webhook to poll instead', { webhook: info.url })
      }
    } else {
      const secret = await webhookSecret(config.webhookSecret, ctx.storage)
      await registerWebhook(api, url, secret)
      webhook = { url, secret, health: new WebhookHealth(api, url) }
    }
    const outbox = new Outbox({
      logger,
      limit: MAX_OUTBOX,
      retryAfterMs,
      channel: 'telegram',
      limitedBy: 'Telegram rate-limited the bot',
      full: (limit) => new TemporaryFailure(worded('queue_full', { limit })),
    })
    const fileRoot = `${apiRootOf(config)}/file/bot${config.token}`
    this.#on = {
      ctx,
      api,
      bot,
      hearing: new Hearing({
        api,
        bot,
        fileRoot,
        maxFileBytes: config.maxFileMegabytes * 1024 * 1024,
        logger,
      }),
      members: new GroupMembers(api, ctx.storage),
      menu: new CommandMenu(api, () => ctx.rhiza<MenuMycelium>('mycelium'), logger),
      outbox,
      ...(webhook === undefined ? {} : { webhook }),
    }
    logger.info('telegram connected', {
      bot: `@${bot.username}`,
      mode: url === undefined ? 'polling' : 'webhook',
    })
    ctx.connection?.up()
  }

  /** Starts hearing: the polling loop, or the webhook route, which answered 503 until now. */
  async listen(): Promise<void> {
    const on = this.#connected('listen()')
    this.#listening = true
    this.#track(on.menu.offerToEveryone())
    if (on.webhook !== undefined) return
    this.#polling = telegramPolling({
      api: on.api,
      storage: on.ctx.storage,
      logger: on.ctx.logger,
      ...(this.options.keepOffsetEveryMs === undefined
        ? {}
        : { keepOffsetEveryMs: this.options.keepOffsetEveryMs }),
      timeoutSeconds: this.options.pollTimeoutSeconds ?? 30,
      backoff: this.options.backoff ?? { initialMs: 1_000, maxMs: 60_000 },
      deliver: (updates) => this.#receive(updates),
      report: (state) => this.#reportPolling(state),
    })
    this.#polling.start()
  }

  /** Stops hearing, lets messages handed to the core finish (their replies included), then lets go. */
  async stop(): Promise<void> {
    this.#listening = false
    await this.#polling?.stop()
    this.#polling = undefined
    await Promise.allSettled([...this.#inFlight])
    this.#on?.outbox.stop()
    this.#on = undefined
    this.#pollingState = undefined
  }

  /**
   * Resolves once every piece is posted. A send takes its place in its conversation's line at once,
   * so sends made together leave in the order they were made; files are read when its turn comes,
   * and after a rate limit it goes on from the piece Telegram refused. Telegram has no key a client
   * chooses to deduplicate by, so the core's deliveryId is not used.
   */
  async send(conversationId: string, content: OutgoingContent): Promise<void> {
    const on = this.#connected('send()')
    const place = placeOf(conversationId)
    if (place === undefined) throw new Error(`telegram: ${conversationId} is not a Telegram chat id`)
    const handling = answering.getStore()
    // In a group, answers interleave: each quotes the message it answers. A private chat needs no quote.
    const replyTo =
      handling?.conversationId === conversationId && place.chatId < 0 ? handling.messageId : undefined
    let steps: SendStep[] | undefined
    let posted = 0
    const post = async () => {
      const refused = this.#forbidden.get(place.chatId)
      if (refused !== undefined) throw new Error(worded('blocked', { chat: place.chatId, reason: refused }))
      steps ??= await sendSteps({
        api: on.api,
        place,
        content,
        ...(replyTo === undefined ? {} : { replyTo }),
      })
      for (; posted < steps.length; posted += 1) await this.#post(place.chatId, steps[posted] as SendStep)
    }
    await on.outbox.deliver(conversationId, post, `message to ${conversationId}`)
  }

  async listGroupMembers(groupId: string): Promise<readonly ChannelIdentity[]> {
    if (placeOf(groupId)?.threadId !== undefined || !groupId.startsWith('-')) {
      throw new Error(`telegram: ${groupId} is not a Telegram group id (a group's id is negative)`)
    }
    return this.#connected('listGroupMembers()').members.list(groupId)
  }

  async health(): Promise<Health> {
    const checkedAt = new Date()
    const on = this.#on
    if (on === undefined) return { state: 'unreachable', detail: 'not connected', checkedAt }
    const base = on.webhook !== undefined ? await on.webhook.health.check() : this.#pollingHealth(checkedAt)
    const troubles: string[] = []
    if (on.outbox.rateLimited > 0) {
      troubles.push(
        worded('rate_limited', { count: on.outbox.rateLimited, seconds: on.outbox.retryInSeconds ?? 0 }),
      )
    }
    for (const [chat, reason] of this.#forbidden) troubles.push(worded('blocked', { chat, reason }))
    if (troubles.length === 0) return base
    const state = base.state === 'healthy' ? 'degraded' : base.state
    return { state, detail: `${base.detail}; ${troubles.join('; ')}`, checkedAt }
  }

  #pollingHealth(checkedAt: Date): Health {
    const state = this.#pollingState
    if (state === undefined) return { state: 'degraded', detail: 'connected; not polling yet', checkedAt }
    if (state.kind === 'polling') return { state: 'healthy', detail: 'polling for updates', checkedAt }
    if (state.kind === 'refused') return { state: 'unreachable', detail: state.reason, checkedAt }
    return { state: 'unreachable', detail: `${state.reason} (attempt ${state.attempt})`, checkedAt }
  }

  #reportPolling(state: PollState): void {
    this.#pollingState = state
    const ctx = this.#on?.ctx
    if (ctx === undefined) return
    if (state.kind === 'polling') {
      ctx.logger.info('telegram: polling for updates')
      ctx.connection?.up()
    } else if (state.kind === 'retrying') {
      ctx.logger.warn(state.reason, { attempt: state.attempt, retryInMs: state.inMs })
      ctx.connection?.lost(state.reason, { attempt: state.attempt, inMs: state.inMs })
    } else {
      // The token was revoked while running: the core stops the hypha and connects it again, with backoff.
      ctx.logger.error(state.reason)
      ctx.connection?.lost(state.reason)
    }
  }

  #connected(what: string): Connected {
    // For now: the core keeps the message and sends it once the hypha is connected again.
    if (this.#on === undefined) throw new TemporaryFailure(`telegram: ${what} called while not connected`)
    return this.#on
  }

  /** The webhook route: refuses a call without the secret, and asks Telegram to retry while not listening. */
  async #webhookCall(request: Request): Promise<Response> {
    const on = this.#on
    if (on?.webhook === undefined) return new Response('not receiving by webhook', { status: 404 })
    if (!carriesSecret(request, on.webhook.secret)) {
      on.ctx.logger.warn('telegram: a webhook call without the right secret token was refused')
      return new Response('forbidden', { status: 401 })
    }
    if (!this.#listening) return new Response('not listening yet', { status: 503 })
    const update = await updateOf(request)
    if (update === undefined) return new Response('not an update', { status: 400 })
    await this.#receive([update])
    return new Response(null, { status: 200 })
  }

  /** Learns membership, then hands each new message to the core in order, without waiting for its handling. */
  async #receive(updates: readonly Update[]): Promise<void> {
    const on = this.#on
    if (on === undefined) return
    for (const update of updates) {
      await on.members.observe(update).catch((error: unknown) =>
        on.ctx.logger.warn('telegram: a member change could not be kept', {
          error: describeFailure(error),
        }),
      )
      const heard = await on.hearing.hear(update)
      if (heard !== undefined) this.#emit(on, heard)
    }
  }

  #emit(on: Connected, message: IncomingMessage): void {
    const chatId = Number(message.conversationId.split('/')[0])
    // Someone wrote from a chat refused earlier: it takes messages again.
    this.#forbidden.delete(chatId)
    const turn = { conversationId: message.conversationId, messageId: Number(message.messageId) }
    const handled = answering
      .run(turn, () => on.ctx.emit(message))
      .then(() =>
        message.group === undefined ? on.menu.offer(chatId, message.sender.externalId) : undefined,
      )
      .catch((error: unknown) =>
        on.ctx.logger.error('telegram: the core failed to handle a message', {
          messageId: message.messageId,
          error: describeFailure(error),
        }),
      )
    this.#track(handled)
  }

  /** Work under way that stop() lets finish: a message being handled, menus being set. */
  #track(work: Promise<void>): void {
    const tracked = work.finally(() => this.#inFlight.delete(tracked))
    this.#inFlight.add(tracked)
  }

  /** Posts one step; a chat Telegram refuses (403) is remembered, so no send retries into it. */
  async #post(chatId: number, step: SendStep): Promise<void> {
    try {
      await step.run()
    } catch (error) {
      // Telegram unreachable or failing for a moment: the core keeps the message and tries again.
      if (isUnreachable(error)) {
        throw new TemporaryFailure(`telegram: ${step.label} not sent for now: ${describeFailure(error)}`)
      }
      if (!isForbidden(error)) throw error
      const reason = describeFailure(error)
      this.#forbidden.set(chatId, reason)
      const words = worded('blocked', { chat: chatId, reason })
      this.#on?.ctx.logger.error(words, { chat: chatId })
      throw new Error(words, { cause: error })
    }
  }
}

/** A failed getMe as the operator should read it: the token refused, Telegram unreachable, or else. */
function connectError(error: unknown, api: string): TelegramConnectError {
  const reason = describeFailure(error)
  if (isTokenRejected(error)) return new TelegramConnectError('token_rejected', { reason }, error)
  if (isUnreachable(error)) return new TelegramConnectError('unavailable', { reason, api }, error)
  return new TelegramConnectError('failed', { reason }, error)
}
