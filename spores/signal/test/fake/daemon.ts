import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Socket, TCPSocketListener, UnixSocketListener } from 'bun'
import { BOOK_CLUB, BOT_NUMBER, type Group, type ReceivePayload } from './frames.ts'
import { Recorder } from './recorder.ts'

/** One JSON-RPC request the fake daemon read, and which of its two listeners it came through. */
export interface DaemonRequest {
  readonly method: string
  readonly params: Readonly<Record<string, unknown>>
  readonly id: unknown
  readonly via: 'unix' | 'tcp'
}

export interface JsonRpcError {
  readonly code: number
  readonly message: string
}

export interface FakeDaemonOptions {
  readonly account?: string
  readonly groups?: readonly Group[]
}

interface Connection {
  readonly via: 'unix' | 'tcp'
  readonly decoder: TextDecoder
  partial: string
}

/**
 * A stand-in for `signal-cli daemon --socket <path> --tcp 127.0.0.1:<port>`: JSON-RPC 2.0, one
 * object a line, answering send, sendReaction and listGroups the way signal-cli does, and pushing
 * `receive` notifications to every connected client.
 */
export class FakeDaemon {
  readonly account: string
  readonly requests = new Recorder<DaemonRequest>()
  readonly socketPath: string
  groups: readonly Group[]
  readonly #dir: string
  readonly #clients = new Set<Socket<Connection>>()
  readonly #failures = new Map<string, JsonRpcError>()
  readonly #unanswered = new Set<string>()
  #unix: UnixSocketListener<Connection> | undefined
  #tcp: TCPSocketListener<Connection> | undefined
  #port = 0

  private constructor(options: FakeDaemonOptions) {
    this.account = options.account ?? BOT_NUMBER
    this.groups = options.groups ?? [BOOK_CLUB]
    this.#dir = mkdtempSync(join(tmpdir(), 'mycelo-signal-cli-'))
    this.socketPath = join(this.#dir, 'socket')
  }

  static start(options: FakeDaemonOptions = {}): FakeDaemon {
    const daemon = new FakeDaemon(options)
    daemon.#listen()
    return daemon
  }

  /** `127.0.0.1:<port>`, the form the hypha's address setting takes. */
  get tcpAddress(): string {
    return `127.0.0.1:${this.#port}`
  }

  get clients(): number {
    return this.#clients.size
  }

  /** Sends one `receive` notification to every client. */
  push(payload: ReceivePayload): void {
    this.pushLine(JSON.stringify({ jsonrpc: '2.0', method: 'receive', params: payload }))
  }

  /** Sends a raw line, such as one that is not JSON at all. */
  pushLine(line: string): void {
    for (const client of this.#clients) client.write(`${line}\n`)
  }

  /** The next call of `method` is answered with this JSON-RPC error instead. */
  failNext(method: string, error: JsonRpcError): void {
    this.#failures.set(method, error)
  }

  /** The next call of `method` is recorded and never answered, as a daemon that hangs. */
  holdNext(method: string): void {
    this.#unanswered.add(method)
  }

  /** Drops every client and stops listening, as a daemon that crashed. */
  goDown(): void {
    for (const client of this.#clients) client.terminate()
    this.#clients.clear()
    this.#unix?.stop(true)
    this.#tcp?.stop(true)
    this.#unix = undefined
    this.#tcp = undefined
    rmSync(this.socketPath, { force: true })
  }

  /** Listens again on the same socket path and port. */
  comeBack(): void {
    this.#listen()
  }

  close(): void {
    this.goDown()
    rmSync(this.#dir, { recursive: true, force: true })
  }

  #listen(): void {
    this.#unix = Bun.listen<Connection>({ unix: this.socketPath, socket: this.#handlers('unix') })
    this.#tcp = Bun.listen<Connection>({
      hostname: '127.0.0.1',
      port: this.#port,
      socket: this.#handlers('tcp'),
    })
    this.#port = this.#tcp.port
  }

  #handlers(via: 'unix' | 'tcp') {
    return {
      open: (socket: Socket<Connection>) => {
        socket.data = { via, decoder: new TextDecoder(), partial: '' }
        this.#clients.add(socket)
      },
      data: (socket: Socket<Connection>, chunk: Uint8Array) => {
        const parts = (socket.data.partial + socket.data.decoder.decode(chunk, { stream: true })).split('\n')
        socket.data.partial = parts.pop() ?? ''
        for (const line of parts) if (line.trim() !== '') this.#request(socket, line)
      },
      close: (socket: Socket<Connection>) => {
        this.#clients.delete(socket)
      },
    }
  }

  #request(socket: Socket<Connection>, line: string): void {
    const reply = (body: Record<string, unknown>) =>
      socket.write(`${JSON.stringify({ jsonrpc: '2.0', ...body })}\n`)
    let request: Record<string, unknown>
    try {
      request = JSON.parse(line)
    } catch {
      reply({ error: { code: -32700, message: 'Failed to parse request', data: null }, id: null })
      return
    }
    const { id, method } = request
    if (typeof method !== 'string') {
      reply({ error: { code: -32600, message: 'method field must be set', data: null }, id: id ?? null })
      return
    }
    const params = (request.params ?? {}) as Record<string, unknown>
    this.requests.add({ method, params, id, via: socket.data.via })
    if (this.#unanswered.delete(method)) return
    const failure = this.#failures.get(method)
    if (failure !== undefined) {
      this.#failures.delete(method)
      reply({ error: { ...failure, data: null }, id })
      return
    }
    const answer = this.#answer(method, params)
    reply('error' in answer ? { error: { ...answer.error, data: null }, id } : { result: answer.result, id })
  }

  #answer(method: string, params: Record<string, unknown>): { result: unknown } | { error: JsonRpcError } {
    switch (method) {
      case 'send':
      case 'sendReaction': {
        const recipients = Array.isArray(params.recipient) ? params.recipient : []
        if (recipients.length === 0 && typeof params.groupId !== 'string') {
          return { error: { code: -32602, message: 'No recipients given' } }
        }
        const results = recipients.map((number) => ({ recipientAddress: { number }, type: 'SUCCESS' }))
        return { result: { timestamp: Date.now(), results } }
      }
      case 'listGroups':
        return { result: this.groups.map(listedGroup) }
      default:
        return { error: { code: -32601, message: 'Method not implemented' } }
    }
  }
}

/** A group as `listGroups` answers it in current signal-cli versions. */
function listedGroup(group: Group) {
  const members = group.members.map((member) => ({ number: member.number, uuid: member.uuid }))
  return {
    id: group.id,
    name: group.name,
    description: '',
    isMember: true,
    isBlocked: false,
    messageExpirationTime: 0,
    members,
    pendingMembers: [],
    requestingMembers: [],
    admins: members.slice(0, 1),
    banned: [],
    permissionAddMember: 'EVERY_MEMBER',
    permissionEditDetails: 'EVERY_MEMBER',
    permissionSendMessage: 'EVERY_MEMBER',
    groupInviteLink: null,
  }
}
