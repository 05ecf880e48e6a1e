import type { ConversationKind } from './vocabulary.ts'

/** Who someone is on one channel. */
export interface ChannelIdentity {
  readonly channel: string
  readonly externalId: string
  readonly displayName?: string
}

export interface Attachment {
  /** Where the file can be fetched from, when the channel hosts it. */
  readonly url?: string
  /** The bytes, when the file is sent rather than linked. */
  readonly data?: Uint8Array
  readonly name?: string
  readonly contentType?: string
  readonly size?: number
}

/** What a hypha emits for every message it hears. */
export interface IncomingMessage {
  readonly channel: string
  readonly conversationId: string
  readonly messageId: string
  readonly group?: { readonly id: string; readonly name?: string }
  readonly sender: ChannelIdentity
  readonly text: string
  readonly attachments: readonly Attachment[]
  /** The channel's own payload, untouched, for a spore that needs more than the normal form. */
  readonly raw: unknown
  readonly receivedAt: Date
}

/** A reaction to an earlier message in the same conversation. */
export interface Reaction {
  readonly messageId: string
  readonly emoji: string
}

/** What a spore sends; a hypha renders what its channel can. */
export interface OutgoingContent {
  readonly text?: string
  readonly attachments?: readonly Attachment[]
  readonly reactTo?: Reaction
}

/** What the core passes beside a hypha's content. */
export interface DeliveryOptions {
  /**
   * The same for every try of one message (letters and digits, at most 20). A hypha whose platform
   * deduplicates by a key the client chooses passes it on, so a retried send is not shown twice.
   */
  readonly deliveryId?: string
}

/** A conversation somewhere, for a proactive send. */
export interface PushTarget {
  readonly channel: string
  readonly conversationId: string
}

/** What a command handler receives. */
export interface Invocation {
  /** The command's name as the manifest declares it. */
  readonly command: string
  /** Positional words bound to the declared args; the last declared arg takes the rest. */
  readonly args: Readonly<Record<string, string>>
  /** Everything after the command name, verbatim. */
  readonly rest: string
  readonly message: IncomingMessage
}

/** `reason` is required on a refusal: the core surfaces it to the operator. */
export type Verdict = { readonly allow: true } | { readonly allow: false; readonly reason: string }

export type HealthState = 'healthy' | 'degraded' | 'unreachable'

export interface Health {
  readonly state: HealthState
  readonly detail?: string
  readonly checkedAt: Date
}

export interface RhizaHealth extends Health {
  readonly name: string
}

export interface Principal {
  readonly id: string
  readonly identities: readonly ChannelIdentity[]
  readonly roles: readonly string[]
  readonly displayName?: string
}

export interface ConversationInfo {
  readonly channel: string
  readonly conversationId: string
  readonly kind: ConversationKind
  readonly label?: string
  readonly locale?: string
  readonly firstSeen: Date
  readonly lastSeen: Date
}
