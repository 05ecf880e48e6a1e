import type { ChannelIdentity } from '@mycelo/septum'
import type { Socket } from 'bun'
import { type DaemonEndpoint, parseDaemonAddress } from '../config.ts'
import { CHANNEL } from '../envelope.ts'
import { LineSplitter, SocketWriter } from './lines.ts'
import {
  type FrameSink,
  type GroupListing,
  isRecord,
  type OutboundMessage,
  type OutboundReaction,
  type Recipient,
  type SendResult,
  SignalCliRefusal,
  type SignalTransport,
  type TransportSession,
} from './transport.ts'

export interface JsonRpcOptions {
  /** The daemon's unix socket path or host:port. */
  readonly address: string
  readonly account: string
  readonly requestTimeoutMs: number
}

/** `signal-cli daemon --socket` or `--tcp`: JSON-RPC 2.0, one JSON object a line, both ways. */
export function jsonRpcTransport(options: JsonRpcOptions): SignalTransport {
  const endpoint = parseDaemonAddress(options.address)
  if (endpoint === undefined) throw new Error(`"${options.address}" is neither a socket path nor host:port`)
  return { address: options.address, dial: (sink) => JsonRpcSession.open(endpoint, sink, options) }
}

interface Pending {
  readonly method: string
  readonly resolve: (result: unknown) => void
  readonly reject: (error: Error) => void
  readonly timer: ReturnType<typeof setTimeout>
}

class JsonRpcSession implements TransportSession {
  readonly closed: Promise<string>
  readonly #pending = new Map<number, Pending>()
  readonly #lines: LineSplitter
  #writer: SocketWriter | undefined
  #socket: Socket<unknown> | undefined
  #nextId = 1
  #gone: string | undefined
  #settleClosed: (reason: string) => void = () => {}

  private constructor(
    private readonly sink: FrameSink,
    private readonly options: JsonRpcOptions,
  ) {
    this.closed = new Promise((resolve) => {
      this.#settleClosed = resolve
    })
    this.#lines = new LineSplitter((dropped) => sink.unparseable(dropped, 'a line longer than 16 MiB'))
  }

  static async open(
    endpoint: DaemonEndpoint,
    sink: FrameSink,
    options: JsonRpcOptions,
  ): Promise<JsonRpcSession> {
    const session = new JsonRpcSession(sink, options)
    const handlers = {
      data: (_socket: Socket<unknown>, chunk: Uint8Array) => session.#receive(chunk),
      drain: () => session.#writer?.drain(),
      end: (socket: Socket<unknown>) => {
        session.#end('signal-cli closed the connection')
        socket.end()
      },
      close: () => session.#end('the connection closed'),
      error: (_socket: Socket<unknown>, error: Error) => session.#end(error.message),
    }
    let socket: Socket<unknown>
    try {
      socket =
        'unix' in endpoint
          ? await Bun.connect({ unix: endpoint.unix, socket: handlers })
          : await Bun.connect({ hostname: endpoint.hostname, port: endpoint.port, socket: handlers })
    } catch (error) {
      throw new Error(connectFailure(error))
    }
    // A daemon host that vanishes without closing the connection is otherwise noticed only by a send.
    if (!('unix' in endpoint)) socket.setKeepAlive(true, 30_000)
    session.#socket = socket
    session.#writer = new SocketWriter(socket)
    return session
  }

  close(): void {
    this.#end('closed by the hypha')
    this.#socket?.end()
  }

  async send(recipient: Recipient, message: OutboundMessage): Promise<void> {
    await this.#request('send', {
      ...target(recipient),
      message: message.text,
      ...(message.attachments.length === 0 ? {} : { attachments: message.attachments }),
    })
  }

  async react(recipient: Recipient, reaction: OutboundReaction): Promise<void> {
    await this.#request('sendReaction', {
      ...target(recipient),
      emoji: reaction.emoji,
      targetAuthor: reaction.targetAuthor,
      targetTimestamp: reaction.targetTimestamp,
    })
  }

  async listGroups(): Promise<readonly GroupListing[]> {
    const result = await this.#request('listGroups', {})
    if (!Array.isArray(result))
      throw new Error('signal-cli answered listGroups with something other than a list')
    return result.filter(isRecord).flatMap((group) => {
      if (typeof group.id !== 'string') return []
      const name = typeof group.name === 'string' && group.name !== '' ? { name: group.name } : {}
      return [{ id: group.id, ...name, members: members(group.members) }]
    })
  }

  /** signal-cli's getAttachment answers `{ data: <base64> }` for an attachment it has stored. */
  async attachment(id: string, from: Recipient): Promise<Uint8Array> {
    const result = await this.#request('getAttachment', { id, ...attachmentSource(from) })
    if (!isRecord(result) || typeof result.data !== 'string') {
      throw new Error('signal-cli answered getAttachment without its data')
    }
    return new Uint8Array(Buffer.from(result.data, 'base64'))
  }

  #request(method: string, params: Record<string, unknown>): Promise<unknown> {
    if (this.#gone !== undefined) {
      return Promise.reject(new Error(`signal-cli is not connected (${this.#gone})`))
    }
    const id = this.#nextId++
    const line = `${JSON.stringify({ jsonrpc: '2.0', method, params: { ...params, account: this.options.account }, id })}\n`
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id)
        reject(new Error(`signal-cli did not answer ${method} within ${this.options.requestTimeoutMs} ms`))
      }, this.options.requestTimeoutMs)
      this.#pending.set(id, { method, resolve, reject, timer })
      this.#writer?.write(line)
    })
  }

  #receive(chunk: Uint8Array): void {
    for (const line of this.#lines.push(chunk)) {
      if (line.trim() !== '') this.#frame(line)
    }
  }

  #frame(line: string): void {
    let frame: unknown
    try {
      frame = JSON.parse(line)
    } catch (error) {
      this.sink.unparseable(line, error instanceof Error ? error.message : String(error))
      return
    }
    if (!isRecord(frame)) {
      this.sink.unparseable(line, 'not a JSON object')
      return
    }
    if (typeof frame.id === 'number' && ('result' in frame || 'error' in frame)) {
      this.#answer(frame.id, frame)
    } else if (frame.method === 'receive') {
      this.sink.received(frame.params)
    } else if ('error' in frame) {
      // signal-cli could not even read a request of ours, so it cannot say which.
      this.sink.unparseable(line, 'an error answer to no request of ours')
    }
  }

  #answer(id: number, frame: Readonly<Record<string, unknown>>): void {
    const pending = this.#pending.get(id)
    if (pending === undefined) return
    this.#pending.delete(id)
    clearTimeout(pending.timer)
    if (isRecord(frame.error)) {
      const { code, message, data } = frame.error
      pending.reject(
        new SignalCliRefusal({
          method: pending.method,
          code: typeof code === 'number' ? code : Number.NaN,
          daemonMessage: String(message),
          results: sendResults(data),
        }),
      )
    } else {
      pending.resolve(frame.result)
    }
  }

  #end(reason: string): void {
    if (this.#gone !== undefined) return
    this.#gone = reason
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer)
      pending.reject(new Error(`signal-cli went away before answering ${pending.method} (${reason})`))
      this.#pending.delete(id)
    }
    this.#settleClosed(reason)
  }
}

const CONNECT_HINTS: Readonly<Record<string, string>> = {
  ENOENT: 'no socket at that path; is `signal-cli daemon --socket` running?',
  ECONNREFUSED: 'nothing listens there; is `signal-cli daemon --tcp` running?',
  EACCES: "permission denied; the bot's user needs read and write access to the socket",
}

function connectFailure(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code
  const hint = typeof code === 'string' ? CONNECT_HINTS[code] : undefined
  const message = error instanceof Error ? error.message : String(error)
  if (hint !== undefined) return `${message} (${String(code)}): ${hint}`
  return typeof code === 'string' ? `${message} (${code})` : message
}

function target(recipient: Recipient): Record<string, unknown> {
  return recipient.kind === 'group' ? { groupId: recipient.groupId } : { recipient: [recipient.id] }
}

/** getAttachment names where the attachment came from: a group, or the person who sent it. */
function attachmentSource(from: Recipient): Record<string, unknown> {
  return from.kind === 'group' ? { groupId: from.groupId } : { recipient: from.id }
}

/** Older signal-cli lists members as numbers; newer as `{ number, uuid }`. */
function members(value: unknown): ChannelIdentity[] {
  if (!Array.isArray(value)) return []
  return value.flatMap((member): ChannelIdentity[] => {
    if (typeof member === 'string') return [{ channel: CHANNEL, externalId: member }]
    if (!isRecord(member)) return []
    const id = [member.uuid, member.number].find((part) => typeof part === 'string' && part !== '')
    return typeof id === 'string' ? [{ channel: CHANNEL, externalId: id }] : []
  })
}

/** A failed send's `data.response.results`: one entry per recipient, each with its outcome `type`. */
function sendResults(data: unknown): SendResult[] {
  const results = isRecord(data) && isRecord(data.response) ? data.response.results : undefined
  if (!Array.isArray(results)) return []
  return results.filter(isRecord).flatMap((result): SendResult[] => {
    if (typeof result.type !== 'string') return []
    const address = isRecord(result.recipientAddress) ? result.recipientAddress : {}
    const recipient = [address.uuid, address.number, result.groupId].find(
      (part) => typeof part === 'string' && part !== '',
    )
    const retry = result.retryAfterSeconds
    return [
      {
        recipient: typeof recipient === 'string' ? recipient : 'unknown recipient',
        type: result.type,
        ...(typeof retry === 'number' && retry >= 0 ? { retryAfterSeconds: retry } : {}),
      },
    ]
  })
}
