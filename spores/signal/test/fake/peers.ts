import type { SignalConfig } from '../../src/config.ts'
import { type DaemonRequest, FakeDaemon } from './daemon.ts'
import { GARBAGE_LINE, type ReceivePayload } from './frames.ts'
import { FakeRestApi, type RestCall } from './rest-api.ts'

/** A message as it reached the fake: `to` is a person's id or `group:<signal-cli group id>`. */
export interface SentMessage {
  readonly to: string
  readonly text: string
  readonly attachments: readonly string[]
}

/** Either fake seen the same way, so one test can run against every transport. */
export interface FakePeer {
  /** The hypha settings that reach this fake. */
  readonly config: SignalConfig
  push(payload: ReceivePayload): void
  /** A frame no JSON parser accepts. */
  pushGarbage(): void
  /** How many hypha connections the fake holds open. */
  connections(): number
  /** Every message sent to the fake so far. */
  sent(): readonly SentMessage[]
  /** The next message sent to the fake from now on. */
  nextSent(timeoutMs?: number): Promise<SentMessage>
  goDown(): void
  comeBack(): void
  close(): void
}

export interface PeerKind {
  readonly label: string
  start(): FakePeer
}

function daemonPeer(via: 'unix' | 'tcp'): PeerKind {
  return {
    label: `signal-cli daemon over ${via === 'unix' ? 'a unix socket' : 'TCP'}`,
    start() {
      const daemon = FakeDaemon.start()
      const address = via === 'unix' ? daemon.socketPath : daemon.tcpAddress
      return {
        config: { account: daemon.account, transport: 'jsonrpc', address },
        push: (payload) => daemon.push(payload),
        pushGarbage: () => daemon.pushLine(GARBAGE_LINE),
        connections: () => daemon.clients,
        sent: () => daemon.requests.where(isSend).map(daemonSent),
        nextSent: async (timeoutMs) =>
          daemonSent(await daemon.requests.next(isSend, 'send request', timeoutMs)),
        goDown: () => daemon.goDown(),
        comeBack: () => daemon.comeBack(),
        close: () => daemon.close(),
      }
    },
  }
}

const restPeer: PeerKind = {
  label: 'signal-cli-rest-api',
  start() {
    const api = FakeRestApi.start()
    return {
      config: { account: api.account, transport: 'rest', address: api.url },
      push: (payload) => api.push(payload),
      pushGarbage: () => api.pushText(GARBAGE_LINE),
      connections: () => api.sockets,
      sent: () => api.calls.where(isRestSend).map(restSent),
      nextSent: async (timeoutMs) => restSent(await api.calls.next(isRestSend, 'POST /v2/send', timeoutMs)),
      goDown: () => api.goDown(),
      comeBack: () => api.comeBack(),
      close: () => api.close(),
    }
  },
}

export const PEER_KINDS: readonly PeerKind[] = [daemonPeer('unix'), daemonPeer('tcp'), restPeer]

const isSend = (request: DaemonRequest) => request.method === 'send'

function daemonSent({ params }: DaemonRequest): SentMessage {
  const to =
    typeof params.groupId === 'string'
      ? `group:${params.groupId}`
      : String((params.recipient as unknown[])[0])
  const attachments = Array.isArray(params.attachments) ? params.attachments.map(String) : []
  return { to, text: String(params.message ?? ''), attachments }
}

const isRestSend = (call: RestCall) => call.method === 'POST' && call.path === '/v2/send'

function restSent({ body }: RestCall): SentMessage {
  const { recipients, message, base64_attachments } = body as Record<string, unknown>
  const recipient = String((recipients as unknown[])[0])
  const to = recipient.startsWith('group.')
    ? `group:${Buffer.from(recipient.slice('group.'.length), 'base64').toString()}`
    : recipient
  const attachments = Array.isArray(base64_attachments) ? base64_attachments.map(String) : []
  return { to, text: String(message ?? ''), attachments }
}
