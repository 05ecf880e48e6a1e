import type {
  ChannelIdentity,
  Health,
  Hypha,
  HyphaContext,
  IncomingMessage,
  OutgoingContent,
} from '@mycelo/septum'
import type { SignalConfig } from './config.ts'
import { GROUP_PREFIX, normaliseReceived } from './envelope.ts'
import { type Backoff, DaemonLink } from './link.ts'
import { dataUriOf, reactionOf, recipientOf } from './outbound.ts'
import { jsonRpcTransport } from './transport/jsonrpc.ts'
import { restTransport } from './transport/rest.ts'
import { excerpt, type FrameSink, type SignalTransport } from './transport/transport.ts'

/** Knobs the bot leaves at their defaults; tests shorten them. */
export interface SignalHyphaOptions {
  readonly backoff?: Backoff
  readonly requestTimeoutMs?: number
}

export type SignalHypha = Hypha<SignalConfig> & { health(): Promise<Health> }

const DEFAULT_BACKOFF: Backoff = { initialMs: 200, maxMs: 30_000 }

/** Messages heard between connect() and listen() wait here; past this many the oldest go. */
const MAX_WAITING = 1_000

export function createSignalHypha(options: SignalHyphaOptions = {}): SignalHypha {
  let context: HyphaContext<SignalConfig> | undefined
  let link: DaemonLink | undefined
  let listening = false
  const waiting: IncomingMessage[] = []

  const emit = (message: IncomingMessage): void => {
    // Not awaited: one slow command must not hold back the next message on the socket.
    context?.emit(message).catch((error: unknown) => {
      context?.logger.error('the core failed to take a Signal message', {
        messageId: message.messageId,
        error: String(error),
      })
    })
  }

  const linkOf = (): DaemonLink => {
    if (link === undefined) throw new Error('the signal hypha is not connected: call connect() first')
    return link
  }

  return {
    async connect(ctx) {
      await link?.stop()
      context = ctx
      const transport = transportFor(ctx.config, options.requestTimeoutMs ?? 30_000)
      const sink = frameSink(ctx, transport, (message) => {
        if (listening) emit(message)
        else if (waiting.push(message) > MAX_WAITING) waiting.shift()
      })
      link = new DaemonLink({
        transport,
        sink,
        backoff: options.backoff ?? DEFAULT_BACKOFF,
        logger: ctx.logger,
      })
      await link.start()
    },

    async listen() {
      listening = true
      for (const message of waiting.splice(0)) emit(message)
    },

    async stop() {
      listening = false
      await link?.stop()
    },

    async send(conversationId: string, content: OutgoingContent) {
      const recipient = recipientOf(conversationId)
      const session = linkOf().session()
      if (content.reactTo !== undefined) {
        await session.react(recipient, reactionOf(content.reactTo.messageId, content.reactTo.emoji))
      }
      const text = content.text ?? ''
      const attachments = await Promise.all((content.attachments ?? []).map(dataUriOf))
      if (text === '' && attachments.length === 0) return
      await session.send(recipient, { text, attachments })
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
      return link?.health() ?? { state: 'unreachable', detail: 'not connected yet', checkedAt: new Date() }
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
