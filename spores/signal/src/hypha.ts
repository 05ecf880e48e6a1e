import {
  type ChannelIdentity,
  type DeliveryOptions,
  type Health,
  type Hypha,
  type HyphaContext,
  type IncomingMessage,
  Outbox,
  type OutgoingContent,
  TemporaryFailure,
} from '@mycelo/septum'
import { withAttachmentBytes } from './attachments.ts'
import type { SignalConfig } from './config.ts'
import { GROUP_PREFIX, normaliseReceived } from './envelope.ts'
import { type Backoff, DaemonLink } from './link.ts'
import { dataUriOf, reactionOf, recipientOf } from './outbound.ts'
import { jsonRpcTransport } from './transport/jsonrpc.ts'
import { restTransport } from './transport/rest.ts'
import { RestRefusal } from './transport/rest-api.ts'
import {
  excerpt,
  type FrameSink,
  SignalCliRefusal,
  type SignalTransport,
  type TransportSession,
} from './transport/transport.ts'
import { worded } from './wording.ts'

/** Knobs the bot leaves at their defaults; tests shorten them. */
export interface SignalHyphaOptions {
  readonly backoff?: Backoff
  readonly requestTimeoutMs?: number
  /** How long a rate-limited message waits when Signal does not say; 30 s unless given. */
  readonly rateLimitWaitMs?: number
  /** The largest received attachment whose bytes are fetched; 25 MiB unless given. */
  readonly maxAttachmentBytes?: number
}

export type SignalHypha = Hypha<SignalConfig> & { health(): Promise<Health> }

const DEFAULT_BACKOFF: Backoff = { initialMs: 200, maxMs: 30_000 }

/** Messages heard between connect() and listen() wait here; past this many the oldest go. */
const MAX_WAITING = 1_000

/** Outbound messages that may wait for Signal's rate limit; one more is refused with a reason. */
const MAX_OUTBOX = 1_000

export function createSignalHypha(options: SignalHyphaOptions = {}): SignalHypha {
  let context: HyphaContext<SignalConfig> | undefined
  let link: DaemonLink | undefined
  let listening = false
  const waiting: IncomingMessage[] = []
  let outbox: Outbox | undefined

  const emit = (message: IncomingMessage): void => {
    // Not awaited: one slow command must not hold back the next message on the socket.
    context?.emit(message).catch((error: unknown) => {
      context?.logger.error('the core failed to take a Signal message', {
        messageId: message.messageId,
        error: String(error),
      })
    })
  }

  const liveSession = (): TransportSession | undefined => {
    try {
      return link?.session()
    } catch {
      return undefined
    }
  }

  const linkOf = (): DaemonLink => {
    if (link === undefined) throw new Error('the signal hypha is not connected: call connect() first')
    return link
  }

  return {
    async connect(ctx) {
      await link?.stop()
      outbox?.stop()
      context = ctx
      outbox = new Outbox({
        logger: ctx.logger,
        limit: MAX_OUTBOX,
        retryAfterMs: (error) => rateLimitWait(error, options.rateLimitWaitMs ?? 30_000),
        channel: 'signal',
        limitedBy: 'Signal rate-limited the account',
        full: (limit) => new TemporaryFailure(worded('queue_full', { limit })),
      })
      const transport = transportFor(ctx.config, options.requestTimeoutMs ?? 30_000)
      const fetching = {
        maxBytes: options.maxAttachmentBytes ?? 25 * 1024 * 1024,
        logger: ctx.logger,
        get session() {
          return liveSession()
        },
      }
      // Fetching an attachment's bytes takes time; the chain keeps messages in the order they came.
      let inbound: Promise<void> = Promise.resolve()
      const sink = frameSink(ctx, transport, (message) => {
        inbound = inbound
          .then(() => withAttachmentBytes(message, fetching))
          .then((whole) => {
            if (listening) emit(whole)
            else if (waiting.push(whole) > MAX_WAITING) waiting.shift()
          })
      })
      link = new DaemonLink({
        transport,
        sink,
        backoff: options.backoff ?? DEFAULT_BACKOFF,
        logger: ctx.logger,
        account: ctx.config.account,
        reports: ctx.connection,
        checkMs: (ctx.config.checkSeconds ?? 30) * 1000,
      })
      await link.start()
    },

    async listen() {
      listening = true
      for (const message of waiting.splice(0)) emit(message)
    },

    async stop() {
      listening = false
      outbox?.stop()
      await link?.stop()
    },

    /**
     * Resolves once signal-cli took every part. The send takes its place in its conversation's line
     * at once, so sends made together leave in the order they were made; one Signal refuses for its
     * rate limit waits and goes again, from the part that was refused. Signal has no key to
     * deduplicate by, so `delivery` is not used.
     */
    async send(conversationId: string, content: OutgoingContent, _delivery?: DeliveryOptions) {
      const recipient = recipientOf(conversationId)
      const reaction =
        content.reactTo === undefined
          ? undefined
          : reactionOf(content.reactTo.messageId, content.reactTo.emoji)
      const live = linkOf()
      const queue = outbox as Outbox
      // Not connected now: the caller hears it at once, as a failure worth trying again later.
      await toSignalCli(async () => void live.session())
      const steps: (() => Promise<void>)[] = []
      if (reaction !== undefined)
        steps.push(() => toSignalCli(() => live.session().react(recipient, reaction)))
      const text = content.text ?? ''
      if (text !== '' || (content.attachments ?? []).length > 0) {
        steps.push(async () => {
          const attachments = await Promise.all((content.attachments ?? []).map(dataUriOf))
          await toSignalCli(() => live.session().send(recipient, { text, attachments }))
        })
      }
      if (steps.length === 0) return
      let done = 0
      const post = async () => {
        for (; done < steps.length; done += 1) await (steps[done] as () => Promise<void>)()
      }
      await queue.deliver(conversationId, post, `message to ${conversationId}`)
    },

    async listGroupMembers(groupId: string): Promise<readonly ChannelIdentity[]> {
      const id = groupId.startsWith(GROUP_PREFIX) ? groupId.slice(GROUP_PREFIX.length) : groupId
      try {
        const groups = await linkOf().session().listGroups()
        const group = groups.find((candidate) => candidate.id === id)
        if (group === undefined) {
          context?.logger.warn('signal-cli does not list this group; answering no members', { groupId: id })
          return []
        }
        return group.members
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error)
        context?.logger.warn('cannot list the group members; answering none', { groupId: id, error: message })
        return []
      }
    },

    async health() {
      const linked = link?.health() ?? {
        state: 'unreachable',
        detail: 'not connected yet',
        checkedAt: new Date(),
      }
      const held = outbox?.rateLimited ?? 0
      if (linked.state !== 'healthy' || held === 0) return linked
      const next = outbox?.retryInSeconds
      const detail = worded('rate_limited', { count: held, seconds: next ?? 0 })
      return { state: 'degraded', detail, checkedAt: linked.checkedAt }
    },
  }
}

function transportFor(config: SignalConfig, requestTimeoutMs: number): SignalTransport {
  const { account, address } = config
  if (config.transport === 'jsonrpc') return jsonRpcTransport({ address, account, requestTimeoutMs })
  return restTransport({
    address,
    account,
    requestTimeoutMs,
    ...(config.token === undefined ? {} : { token: config.token }),
    ...(config.username === undefined ? {} : { username: config.username }),
    ...(config.password === undefined ? {} : { password: config.password }),
  })
}

function frameSink(
  ctx: HyphaContext<SignalConfig>,
  transport: SignalTransport,
  deliver: (message: IncomingMessage) => void,
): FrameSink {
  const attachmentUrl = transport.attachmentUrl?.bind(transport)
  const options = { account: ctx.config.account, ...(attachmentUrl === undefined ? {} : { attachmentUrl }) }
  return {
    received(payload) {
      const outcome = normaliseReceived(payload, options)
      if (outcome.kind === 'message') deliver(outcome.message)
      else if (outcome.kind === 'ignored')
        ctx.logger.debug('ignored a Signal envelope', { reason: outcome.reason })
      else ctx.logger.warn('skipped a Signal payload it cannot read', { reason: outcome.reason })
    },
    unparseable(frame, why) {
      ctx.logger.warn('skipped a frame from signal-cli that is not a payload', { why, frame: excerpt(frame) })
    },
  }
}

/**
 * signal-cli's own refusals (and the REST API's 4xx) are final, unless Signal itself could not be
 * reached (NETWORK_FAILURE); a link that is down, a call that timed out, or a 5xx are temporary.
 */
async function toSignalCli(call: () => Promise<void>): Promise<void> {
  try {
    await call()
  } catch (error) {
    throw temporaryOrAsItIs(error)
  }
}

function temporaryOrAsItIs(error: unknown): unknown {
  if (error instanceof SignalCliRefusal) {
    const failed = error.results.filter((result) => result.type !== 'SUCCESS')
    const network = failed.length > 0 && failed.every((result) => result.type === 'NETWORK_FAILURE')
    return network ? new TemporaryFailure(error.message) : error
  }
  if (error instanceof RestRefusal) return error.status >= 500 ? new TemporaryFailure(error.message) : error
  return new TemporaryFailure(error instanceof Error ? error.message : String(error))
}

/** How long a refusal for Signal's rate limit asks to wait; undefined for any other refusal. */
function rateLimitWait(error: unknown, fallbackMs: number): number | undefined {
  if (!(error instanceof SignalCliRefusal) || !error.rateLimited) return undefined
  const seconds = error.results.flatMap((result) => result.retryAfterSeconds ?? [])
  return seconds.length === 0 ? fallbackMs : Math.max(...seconds) * 1000
}
