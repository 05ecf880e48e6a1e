/**
 * Receive payloads shaped the way signal-cli writes them: the `params` of a JSON-RPC `receive`
 * notification, which signal-cli-rest-api forwards verbatim as one websocket text message.
 */

export interface Person {
  readonly number: string
  readonly uuid: string
  readonly name: string
}

export interface Group {
  readonly id: string
  readonly name: string
  readonly members: readonly Person[]
}

export interface ReceivedAttachment {
  readonly contentType: string
  readonly filename: string | null
  readonly id: string
  readonly size: number
}

/** What goes over the wire: `{ envelope, account }`. */
export type ReceivePayload = Readonly<Record<string, unknown>>

export const BOT_NUMBER = '+15550100000'

export const ALICE: Person = {
  number: '+15550100001',
  uuid: 'a11ce000-0000-4000-8000-000000000001',
  name: 'Alice',
}
export const BOB: Person = {
  number: '+15550100002',
  uuid: 'b0b00000-0000-4000-8000-000000000002',
  name: 'Bob',
}

export const BOOK_CLUB: Group = {
  id: 'Pmpi+EfPWmsxiomLe9Nx2XF9HOE483p6iKiFj65iMwI=',
  name: 'Book club',
  members: [ALICE, BOB],
}

/** A line no JSON parser accepts, as a daemon's stray log output would be. */
export const GARBAGE_LINE = 'INFO  ReceiveHelper - this line is not JSON {'

// Every frame gets its own timestamp, so the message ids built from them never collide.
let clock = 1_700_000_000_000
const nextTimestamp = (): number => {
  clock += 1
  return clock
}

function envelope(from: Person, body: Record<string, unknown>, timestamp: number, account: string) {
  return {
    envelope: {
      source: from.number,
      sourceNumber: from.number,
      sourceUuid: from.uuid,
      sourceName: from.name,
      sourceDevice: 1,
      timestamp,
      serverReceivedTimestamp: timestamp + 40,
      serverDeliveredTimestamp: timestamp + 45,
      ...body,
    },
    account,
  }
}

export interface MessageSpec {
  readonly text?: string
  readonly from?: Person
  readonly attachments?: readonly ReceivedAttachment[]
  readonly account?: string
  readonly timestamp?: number
}

export function directMessage(spec: MessageSpec = {}): ReceivePayload {
  const timestamp = spec.timestamp ?? nextTimestamp()
  return envelope(
    spec.from ?? ALICE,
    { dataMessage: dataMessage(spec, timestamp) },
    timestamp,
    spec.account ?? BOT_NUMBER,
  )
}

export function groupMessage(spec: MessageSpec & { readonly group?: Group } = {}): ReceivePayload {
  const timestamp = spec.timestamp ?? nextTimestamp()
  const group = spec.group ?? BOOK_CLUB
  const data = {
    ...dataMessage(spec, timestamp),
    groupInfo: { groupId: group.id, groupName: group.name, revision: 3, type: 'DELIVER' },
  }
  return envelope(spec.from ?? BOB, { dataMessage: data }, timestamp, spec.account ?? BOT_NUMBER)
}

export function typingIndicator(from: Person = ALICE): ReceivePayload {
  const timestamp = nextTimestamp()
  return envelope(from, { typingMessage: { action: 'STARTED', timestamp } }, timestamp, BOT_NUMBER)
}

export function readReceipt(timestamps: readonly number[], from: Person = ALICE): ReceivePayload {
  const timestamp = nextTimestamp()
  const receipt = { when: timestamp, isDelivery: false, isRead: true, isViewed: false, timestamps }
  return envelope(from, { receiptMessage: receipt }, timestamp, BOT_NUMBER)
}

export function remoteDelete(targetTimestamp: number, from: Person = ALICE): ReceivePayload {
  const timestamp = nextTimestamp()
  const data = {
    timestamp,
    expiresInSeconds: 0,
    viewOnce: false,
    remoteDelete: { timestamp: targetTimestamp },
  }
  return envelope(from, { dataMessage: data }, timestamp, BOT_NUMBER)
}

export function reaction(targetTimestamp: number, from: Person = ALICE): ReceivePayload {
  const timestamp = nextTimestamp()
  const react = {
    emoji: '👍',
    targetAuthor: BOT_NUMBER,
    targetAuthorNumber: BOT_NUMBER,
    targetAuthorUuid: 'b07b07b0-0000-4000-8000-000000000000',
    targetSentTimestamp: targetTimestamp,
    isRemove: false,
  }
  const data = { timestamp, expiresInSeconds: 0, viewOnce: false, reaction: react }
  return envelope(from, { dataMessage: data }, timestamp, BOT_NUMBER)
}

/** What the bot's own number sent from a linked phone: signal-cli reports it as a sync message. */
export function syncSentMessage(text: string): ReceivePayload {
  const timestamp = nextTimestamp()
  const me: Person = { number: BOT_NUMBER, uuid: 'b07b07b0-0000-4000-8000-000000000000', name: 'Mycelo' }
  const sent = {
    destination: ALICE.number,
    destinationNumber: ALICE.number,
    destinationUuid: ALICE.uuid,
    timestamp,
  }
  return envelope(me, { syncMessage: { sentMessage: { ...sent, message: text } } }, timestamp, BOT_NUMBER)
}

function dataMessage(spec: MessageSpec, timestamp: number): Record<string, unknown> {
  return {
    timestamp,
    message: spec.text ?? null,
    expiresInSeconds: 0,
    viewOnce: false,
    ...(spec.attachments === undefined ? {} : { attachments: spec.attachments }),
  }
}

/** The timestamp a payload's envelope carries, to build the message id a reaction targets. */
export function timestampOf(payload: ReceivePayload): number {
  return (payload.envelope as { timestamp: number }).timestamp
}
