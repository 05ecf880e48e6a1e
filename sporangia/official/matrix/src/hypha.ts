import { AsyncLocalStorage } from 'node:async_hooks'
import {
  type Backoff,
  type ChannelIdentity,
  type DeliveryOptions,
  type Health,
  type Hypha,
  type HyphaContext,
  type IncomingMessage,
  Outbox,
  type OutgoingContent,
  type PollLoop,
  type PollState,
  TemporaryFailure,
} from '@mycelo/septum'
import type { ISyncResponse, MatrixClient } from 'matrix-js-sdk'
import {
  createMatrixClient,
  describeFailure,
  isForbidden,
  isTokenRejected,
  isUnreachable,
  retryAfterMs,
} from './client.ts'
import type { MatrixConfig } from './config.ts'
import { Hearing } from './hearing.ts'
import { CHANNEL, placeOf } from './inbound.ts'
import { type SendStep, sendSteps } from './outbound.ts'
import { Rooms } from './rooms.ts'
import { matrixSync } from './sync.ts'
import { MatrixConnectError, worded } from './wording.ts'

export interface MatrixHyphaOptions {
  readonly backoff?: Backoff
  /** How long one /sync waits at the homeserver; 30 s unless a test needs it shorter. */
  readonly syncTimeoutMs?: number
}

/** Outbound messages that may wait for the homeserver's rate limit; one more is refused with a reason. */
const MAX_OUTBOX = 100

/** The message a send answers, known while the core handles it (a reply quotes it in a group room). */
const answering = new AsyncLocalStorage<{ readonly conversationId: string; readonly eventId: string }>()

interface Connected {
  readonly ctx: HyphaContext<MatrixConfig>
  readonly client: MatrixClient
  readonly selfId: string
  readonly rooms: Rooms
  readonly outbox: Outbox
}

/** The Matrix channel: one bot account on its homeserver, its rooms, direct chats and threads. */
export class MatrixHypha implements Hypha<MatrixConfig> {
  #on: Connected | undefined
  #sync: PollLoop<ISyncResponse> | undefined
  #syncState: PollState | undefined
  /** Rooms the homeserver refused to let the bot post in, with why, until a post there succeeds. */
  readonly #forbidden = new Map<string, string>()
  readonly #inFlight = new Set<Promise<void>>()

  constructor(private readonly options: MatrixHyphaOptions = {}) {}

  /** Checks the token (whoami) and loads what the spore knows of its rooms. */
  async connect(ctx: HyphaContext<MatrixConfig>): Promise<void> {
    if (this.#on !== undefined) throw new Error('matrix: connect() called while already connected')
    const { config, logger } = ctx
    const probe = createMatrixClient(config, logger)
    const whoami = await probe.whoami().catch((error: unknown) => {
      throw connectError(error, config.homeserverUrl)
    })
    const client = createMatrixClient(config, logger, whoami.user_id)
    const rooms = new Rooms(ctx.storage)
    await rooms.load()
    const outbox = new Outbox({
      logger,
      limit: MAX_OUTBOX,
      retryAfterMs,
      channel: 'matrix',
      limitedBy: 'The homeserver rate-limited the bot',
      full: (limit) => new TemporaryFailure(worded('queue_full', { limit })),
    })
    this.#on = { ctx, client, selfId: whoami.user_id, rooms, outbox }
    logger.info('matrix connected', { user: whoami.user_id, homeserver: config.homeserverUrl })
    ctx.connection?.up()
  }

  /** Starts the /sync loop from the kept token. */
  async listen(): Promise<void> {
    const on = this.#connected('listen()')
    const hearing = new Hearing({
      client: on.client,
      config: on.ctx.config,
      selfId: on.selfId,
      rooms: on.rooms,
      logger: on.ctx.logger,
      emit: (message) => this.#emit(on, message),
    })
    this.#sync = matrixSync({
      client: on.client,
      storage: on.ctx.storage,
      timeoutMs: this.options.syncTimeoutMs ?? 30_000,
      backoff: this.options.backoff ?? { initialMs: 1_000, maxMs: 60_000 },
      deliver: (sync, catchingUp) => hearing.hear(sync, catchingUp),
      report: (state) => this.#reportSync(state),
    })
    this.#sync.start()
  }

  /** Stops hearing, lets messages handed to the core finish (their replies included), then lets go. */
  async stop(): Promise<void> {
    await this.#sync?.stop()
    this.#sync = undefined
    await Promise.allSettled([...this.#inFlight])
    this.#on?.outbox.stop()
    this.#on?.client.stopClient()
    this.#on = undefined
    this.#syncState = undefined
  }

  /**
   * Resolves once every event is sent. A send takes its place in its room's line at once; files
   * are uploaded when its turn comes, and after a rate limit it goes on from the event refused.
   */
  async send(conversationId: string, content: OutgoingContent, delivery?: DeliveryOptions): Promise<void> {
    const on = this.#connected('send()')
    const place = placeOf(conversationId)
    if (place === undefined) throw new Error(`matrix: ${conversationId} is not a Matrix room id`)
    const handling = answering.getStore()
    const inGroup = on.rooms.facts(place.roomId).direct !== true
    // In a group room answers interleave: each quotes the message it answers.
    const replyTo = handling?.conversationId === conversationId && inGroup ? handling.eventId : undefined
    let steps: SendStep[] | undefined
    let posted = 0
    const post = async () => {
      steps ??= await sendSteps({
        client: on.client,
        roomId: place.roomId,
        content,
        ...(place.threadRoot === undefined ? {} : { threadRoot: place.threadRoot }),
        ...(replyTo === undefined ? {} : { replyTo }),
        ...(delivery?.deliveryId === undefined ? {} : { deliveryId: delivery.deliveryId }),
      })
      for (; posted < steps.length; posted += 1) await this.#post(place.roomId, steps[posted] as SendStep)
    }
    await on.outbox.deliver(conversationId, post, `message to ${conversationId}`)
  }

  /** The room's joined members, as the homeserver lists them, the bot itself left out. */
  async listGroupMembers(groupId: string): Promise<readonly ChannelIdentity[]> {
    const on = this.#connected('listGroupMembers()')
    if (placeOf(groupId)?.threadRoot !== undefined || placeOf(groupId) === undefined) {
      throw new Error(`matrix: ${groupId} is not a Matrix room id`)
    }
    const { joined } = await on.client.getJoinedRoomMembers(groupId)
    return Object.entries(joined)
      .filter(([userId]) => userId !== on.selfId)
      .map(([userId, member]) => ({
        channel: CHANNEL,
        externalId: userId,
        ...(member.display_name ? { displayName: member.display_name } : {}),
      }))
  }

  async health(): Promise<Health> {
    const checkedAt = new Date()
    const on = this.#on
    if (on === undefined) return { state: 'unreachable', detail: 'not connected', checkedAt }
    const base = this.#syncHealth(checkedAt)
    const troubles: string[] = []
    if (on.outbox.rateLimited > 0) {
      troubles.push(
        worded('rate_limited', { count: on.outbox.rateLimited, seconds: on.outbox.retryInSeconds ?? 0 }),
      )
    }
    for (const [room, reason] of this.#forbidden) troubles.push(worded('forbidden', { room, reason }))
    if (troubles.length === 0) return base
    const state = base.state === 'healthy' ? 'degraded' : base.state
    return { state, detail: `${base.detail}; ${troubles.join('; ')}`, checkedAt }
  }

  #syncHealth(checkedAt: Date): Health {
    const state = this.#syncState
    if (state === undefined) return { state: 'degraded', detail: 'connected; not syncing yet', checkedAt }
    if (state.kind === 'polling') return { state: 'healthy', detail: 'syncing', checkedAt }
    if (state.kind === 'refused') return { state: 'unreachable', detail: state.reason, checkedAt }
    return { state: 'unreachable', detail: `${state.reason} (attempt ${state.attempt})`, checkedAt }
  }

  #reportSync(state: PollState): void {
    this.#syncState = state
    const ctx = this.#on?.ctx
    if (ctx === undefined) return
    if (state.kind === 'polling') {
      ctx.logger.info('matrix: syncing')
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
    if (this.#on === undefined) throw new TemporaryFailure(`matrix: ${what} called while not connected`)
    return this.#on
  }

  #emit(on: Connected, message: IncomingMessage): void {
    const turn = { conversationId: message.conversationId, eventId: message.messageId }
    const handled = answering
      .run(turn, () => on.ctx.emit(message))
      .catch((error: unknown) =>
        on.ctx.logger.error('matrix: the core failed to handle a message', {
          messageId: message.messageId,
          error: describeFailure(error),
        }),
      )
      .finally(() => this.#inFlight.delete(handled))
    this.#inFlight.add(handled)
  }

  /** Sends one event; a room the homeserver refuses is named in the log and in health. */
  async #post(roomId: string, step: SendStep): Promise<void> {
    try {
      await step.run()
      this.#forbidden.delete(roomId)
    } catch (error) {
      if (isUnreachable(error)) {
        throw new TemporaryFailure(`matrix: ${step.label} not sent for now: ${describeFailure(error)}`)
      }
      if (!isForbidden(error)) throw error
      const reason = describeFailure(error)
      this.#forbidden.set(roomId, reason)
      const words = worded('forbidden', { room: roomId, reason })
      this.#on?.ctx.logger.error(words, { room: roomId })
      throw new Error(words, { cause: error })
    }
  }
}

/** A failed whoami as the operator should read it: the token refused, the homeserver unreachable, or else. */
function connectError(error: unknown, homeserver: string): MatrixConnectError {
  const reason = describeFailure(error)
  if (isTokenRejected(error)) return new MatrixConnectError('token_rejected', { reason }, error)
  if (isUnreachable(error)) return new MatrixConnectError('unavailable', { reason, homeserver }, error)
  return new MatrixConnectError('failed', { reason }, error)
}
