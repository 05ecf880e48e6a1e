import type { ChannelIdentity } from '@mycelo/septum'
import { worded } from '../wording.ts'

/** Who an outbound message goes to: one person (uuid or number) or one group (signal-cli's group id). */
export type Recipient =
  | { readonly kind: 'person'; readonly id: string }
  | { readonly kind: 'group'; readonly groupId: string }

export interface OutboundMessage {
  readonly text: string
  /** `data:<type>;filename=<name>;base64,<bytes>`, the form both signal-cli and the REST API accept. */
  readonly attachments: readonly string[]
}

export interface OutboundReaction {
  readonly emoji: string
  readonly targetAuthor: string
  readonly targetTimestamp: number
}

/** One group as signal-cli lists it, members already as channel identities. */
export interface GroupListing {
  readonly id: string
  readonly name?: string
  readonly members: readonly ChannelIdentity[]
}

/** Where a transport hands what it hears: receive payloads (`{ envelope, account }`) and bad frames. */
export interface FrameSink {
  received(payload: unknown): void
  unparseable(frame: string, why: string): void
}

/** One live connection to signal-cli; a new one is dialled after it closes. */
export interface TransportSession {
  /** Resolves, never rejects, with why the connection ended. */
  readonly closed: Promise<string>
  close(): void
  send(recipient: Recipient, message: OutboundMessage): Promise<void>
  react(recipient: Recipient, reaction: OutboundReaction): Promise<void>
  listGroups(): Promise<readonly GroupListing[]>
  /** The bytes of a received attachment known only by its id, for a transport that fetches them. */
  attachment?(id: string, from: Recipient): Promise<Uint8Array>
}

/** A way of reaching signal-cli. `dial` rejects when it cannot be reached at all. */
export interface SignalTransport {
  /** The configured address, for log lines and errors. */
  readonly address: string
  dial(sink: FrameSink): Promise<TransportSession>
  /** Where a received attachment can be fetched, for a transport that serves them. */
  attachmentUrl?(id: string): string
}

/** One recipient's outcome of a send, as signal-cli reports it in `data.response.results`. */
export interface SendResult {
  /** The recipient's uuid or number, or the group's id. */
  readonly recipient: string
  /** `SUCCESS`, `UNREGISTERED_FAILURE`, `RATE_LIMIT_FAILURE`, `IDENTITY_FAILURE`, … */
  readonly type: string
  readonly retryAfterSeconds?: number
}

/** signal-cli answered a request with a JSON-RPC error; `results` carries a failed send's per-recipient outcome. */
export class SignalCliRefusal extends Error {
  readonly method: string
  readonly code: number
  readonly daemonMessage: string
  readonly results: readonly SendResult[]

  constructor(options: {
    method: string
    code: number
    daemonMessage: string
    results: readonly SendResult[]
  }) {
    const failed = options.results.filter((result) => result.type !== 'SUCCESS')
    const detail = failed.map((result) => ` — ${result.recipient}: ${result.type} (${adviceFor(result)})`)
    super(
      `signal-cli refused ${options.method}: ${options.daemonMessage} (code ${options.code})${detail.join('')}`,
    )
    this.name = 'SignalCliRefusal'
    this.method = options.method
    this.code = options.code
    this.daemonMessage = options.daemonMessage
    this.results = options.results
  }

  /** Every recipient that failed was refused for Signal's rate limit, so trying again later can work. */
  get rateLimited(): boolean {
    const failed = this.results.filter((result) => result.type !== 'SUCCESS')
    return failed.length > 0 && failed.every((result) => result.type === 'RATE_LIMIT_FAILURE')
  }

  /** The daemon has no such account: -32602 "Specified account does not exist". */
  get unknownAccount(): boolean {
    return this.code === -32602 && /account does not exist/i.test(this.daemonMessage)
  }
}

/** What each failure type means for the operator, and what to do about it. */
function adviceFor(result: SendResult): string {
  switch (result.type) {
    case 'UNREGISTERED_FAILURE':
      return worded('unregistered')
    case 'IDENTITY_FAILURE':
      return worded('identity', { recipient: result.recipient })
    case 'RATE_LIMIT_FAILURE':
      return result.retryAfterSeconds === undefined
        ? worded('rate_limit')
        : worded('rate_limit_for', { seconds: result.retryAfterSeconds })
    case 'PROOF_REQUIRED_FAILURE':
      return worded('proof_required')
    case 'NETWORK_FAILURE':
      return worded('network')
    default:
      return worded('other_failure')
  }
}

export function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A frame quoted in a log line, cut short: a frame may be long, and is only there to be recognised. */
export function excerpt(frame: string): string {
  return frame.length > 200 ? `${frame.slice(0, 200)}…` : frame
}
