// A whole core over real spores on disk and a real SQLite file, for tests of the message path and
// the mycelium. Nothing is faked but the chat network: the `chat` hypha records what it is sent.
import type { IncomingMessage, OutgoingContent } from '@mycelo/septum'
import type { Assembly } from '../../boot/runtime.ts'
import type { Germination } from '../../germination/index.ts'
import type { Clock } from '../../schedule/clock.ts'
import type { Store } from '../../store/index.ts'
import type { BootedCore } from './boot.ts'
import { startCoreWith } from './boot-core.ts'

/** A hypha for tests: `say()` emits through its real context, `sent` records every send. */
export const CHAT_HYPHA = {
  'spore.yaml': 'kind: hypha\nname: chat\nseptum: "^1.0"\ncapabilities: [reactions, group_membership]\n',
  'src/index.ts': `
export default {
  create: () => {
    let ctx
    const sent = []
    return {
      sent,
      say: (message) => ctx.emit(message),
      async connect(c) { ctx = c },
      async listen() {},
      async stop() {},
      async send(conversationId, content) { sent.push({ conversationId, content }) },
      async listGroupMembers(groupId) { return [{ channel: 'chat', externalId: groupId + '-member' }] },
    }
  },
}
`,
}

export interface Sent {
  readonly conversationId: string
  readonly content: OutgoingContent
}

export interface TestCore {
  readonly folder: string
  readonly store: Store
  readonly germination: Germination
  readonly assembly: Assembly
  /** Every log line, parsed. */
  readonly logs: () => Record<string, unknown>[]
  /** What the `chat` hypha was asked to send, oldest first. */
  readonly sent: Sent[]
  /** Emits a message from `chat` through the real path; resolves once it is handled. */
  say(text: string, options?: SayOptions): Promise<void>
  /** Says something and answers the texts sent back in reply. */
  ask(text: string, options?: SayOptions): Promise<string[]>
  /** The germination report as the running bot gives it (the supervisor's word included). */
  report(): ReturnType<BootedCore['report']>
  stop(): Promise<void>
}

export interface SayOptions {
  readonly from?: string
  readonly displayName?: string
  readonly conversationId?: string
  readonly group?: { id: string; name?: string }
}

export interface TestCoreOptions {
  /** Spore folders by name: each a map of file path to text. `chat` is always added. */
  readonly spores: Record<string, Record<string, string>>
  /** Extra mycelo.yaml lines (spores and database are set here). */
  readonly config?: string
  /** Settings written before germination: plugin → key → value. */
  readonly settings?: Record<string, Record<string, unknown>>
  /** Roles to create before the first message: role name → command patterns. */
  readonly roles?: Record<string, readonly string[]>
  /** Roles to hand out before the first message: external id on `chat` → role names. */
  readonly grants?: Record<string, readonly string[]>
  /** `debug` unless given; the benchmark logs less. */
  readonly logLevel?: string
  /** A folder the caller owns, to start again on what an earlier core left; kept at stop. */
  readonly folder?: string
  /** The time schedules run by; the system's unless given. */
  readonly clock?: Clock
}

/** A message from `chat` as its hypha emits it: from `owner` in their direct conversation unless told. */
export function chatMessage(text: string, messageId: string, options: SayOptions = {}): IncomingMessage {
  const from = options.from ?? 'owner'
  return {
    channel: 'chat',
    conversationId: options.conversationId ?? options.group?.id ?? `dm-${from}`,
    messageId,
    ...(options.group ? { group: options.group } : {}),
    sender: {
      channel: 'chat',
      externalId: from,
      ...(options.displayName ? { displayName: options.displayName } : {}),
    },
    text,
    attachments: [],
    raw: null,
    receivedAt: new Date(),
  }
}

export async function startTestCore(options: TestCoreOptions): Promise<TestCore> {
  const core = await startCoreWith({
    spores: { chat: CHAT_HYPHA, ...options.spores },
    config: `owner: { channel: chat, userId: owner }\n${options.config ?? ''}`,
    ...(options.settings ? { settings: options.settings } : {}),
    ...(options.roles ? { roles: options.roles } : {}),
    grants: Object.entries(options.grants ?? {}).map(([externalId, roles]) => ({
      channel: 'chat',
      externalId,
      roles,
    })),
    ...(options.logLevel ? { logLevel: options.logLevel } : {}),
    ...(options.folder ? { folder: options.folder } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  })
  const { running } = core
  const { store, germination, assembly } = running
  const chat = germination.byName.get('chat')?.instance as {
    sent: Sent[]
    say(message: IncomingMessage): Promise<void>
  }
  let counter = 0
  // Resolves once the message is handled and what it sent has reached the hypha.
  const say = async (text: string, options: SayOptions = {}) => {
    counter++
    await chat.say(chatMessage(text, `m${counter}`, options))
    await assembly.runtime.outbox.settled()
  }
  return {
    folder: core.folder,
    store,
    germination,
    assembly,
    logs: core.logs,
    sent: chat.sent,
    say,
    async ask(text, options) {
      const before = chat.sent.length
      await say(text, options)
      return chat.sent.slice(before).map((s) => s.content.text ?? '')
    },
    report: () => running.report(),
    stop: core.stop,
  }
}
