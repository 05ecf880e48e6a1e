import type { ChannelIdentity } from '@mycelo/septum'

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
}

/** A way of reaching signal-cli. `dial` rejects when it cannot be reached at all. */
export interface SignalTransport {
  /** The configured address, for log lines and errors. */
  readonly address: string
  dial(sink: FrameSink): Promise<TransportSession>
  /** Where a received attachment can be fetched, for a transport that serves them. */
  attachmentUrl?(id: string): string
}

export function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A frame quoted in a log line, cut short: a frame may be long, and is only there to be recognised. */
export function excerpt(frame: string): string {
  return frame.length > 200 ? `${frame.slice(0, 200)}…` : frame
}
