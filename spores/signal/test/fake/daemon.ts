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
  readonly data?: unknown
}

/** How signal-cli reports one recipient it could not deliver to, in `data.response.results`. */
export interface RecipientFailure {
  readonly type: 'UNREGISTERED_FAILURE' | 'RATE_LIMIT_FAILURE' | 'IDENTITY_FAILURE' | 'NETWORK_FAILURE'
  readonly retryAfterSeconds?: number
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
  /** Sends refused for the rate window, recorded before the refusal is written back. */
  readonly limited = new Recorder<DaemonRequest>()
  /** The sends and reactions signal-cli answered with success for every recipient, in order. */
  readonly delivered = new Recorder<DaemonRequest>()
  readonly socketPath: string
  groups: readonly Group[]
  readonly #dir: string
  readonly #clients = new Set<Socket<Connection>>()
  readonly #failures = new Map<string, JsonRpcError>()
  readonly #unanswered = new Set<string>()
  readonly #refusedRecipients = new Map<string, RecipientFailure>()
  readonly #attachments = new Map<string, Uint8Array>()
  #window:
    | {
        readonly sends: number
        readonly ms: number
        readonly retryAfterSeconds?: number
        start: number
        used: number
      }
    | undefined
  #reorder = 0
  #silent = false
  readonly #reordered: (() => void)[] = []
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
    if (this.#silent) return
    for (const client of this.#clients) writeLine(client, line)
  }

  /**
   * Keeps every connection open, and accepts new ones, but writes nothing on any of them: a
   * half-open socket, as a daemon host that hangs or a path that silently drops packets.
   */
  goSilent(): void {
    this.#silent = true
  }

  /** Answers again; what was asked while silent stays unanswered, as lost on the way. */
  speakAgain(): void {
    this.#silent = false
  }

  /** The next call of `method` is answered with this JSON-RPC error instead. */
  failNext(method: string, error: JsonRpcError): void {
    this.#failures.set(method, error)
  }

  /** The next call of `method` is recorded and never answered, as a daemon that hangs. */
  holdNext(method: string): void {
    this.#unanswered.add(method)
  }

  /** Stores a received attachment's bytes under its id, for getAttachment to answer. */
  storeAttachment(id: string, bytes: Uint8Array): void {
    this.#attachments.set(id, bytes)
  }

  /** Every send to this recipient fails for it, as signal-cli reports it, until `deliverTo`. */
  refuseRecipient(id: string, failure: RecipientFailure): void {
    this.#refusedRecipients.set(id, failure)
  }

  /**
   * From now on at most `sends` sends per `ms`; the rest fail for every recipient with
   * RATE_LIMIT_FAILURE, with `retryAfterSeconds` when given (signal-cli reports whole seconds, or
   * none when Signal gave no wait). `undefined` lifts it.
   */
  limitRate(rate: { sends: number; ms: number; retryAfterSeconds?: number } | undefined): void {
    this.#window = rate === undefined ? undefined : { ...rate, start: Date.now(), used: 0 }
  }

  deliverTo(id: string): void {
    this.#refusedRecipients.delete(id)
  }

  /** The next `count` answers are held, then written last first: the daemon answers as each call finishes. */
  answerNextOutOfOrder(count: number): void {
    this.#reorder = count
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
        for (const line of parts) this.#request(socket, line)
      },
      close: (socket: Socket<Connection>) => {
        this.#clients.delete(socket)
      },
    }
  }

  #request(socket: Socket<Connection>, line: string): void {
    const reply = (body: Record<string, unknown>) => {
      const write = () => writeLine(socket, JSON.stringify({ jsonrpc: '2.0', ...body }))
      if (this.#reorder === 0) return write()
      this.#reordered.push(write)
      if (this.#reordered.length < this.#reorder) return
      this.#reorder = 0
      for (const held of this.#reordered.splice(0).reverse()) held()
    }
    // What signal-cli's JSON-RPC reader and command handler answer, in the order they check.
    if (line.trim() === '') {
      reply({ error: { code: -32700, message: 'Empty input line', data: null }, id: null })
      return
    }
    let request: Record<string, unknown>
    try {
      request = JSON.parse(line)
    } catch {
      reply({ error: { code: -32700, message: 'Failed to parse request', data: null }, id: null })
      return
    }
    const { id, method } = request
    // A request without an id is a notification: the daemon runs it and answers nothing.
    const answer = id === undefined || id === null ? () => {} : reply
    if (request.jsonrpc !== '2.0') {
      reply({
        error: { code: -32600, message: 'only jsonrpc version 2.0 is supported', data: null },
        id: id ?? null,
      })
      return
    }
    if (typeof method !== 'string') {
      reply({ error: { code: -32600, message: 'method field must be set', data: null }, id: id ?? null })
      return
    }
    const params = (request.params ?? {}) as Record<string, unknown>
    this.requests.add({ method, params, id, via: socket.data.via })
    if (this.#silent || this.#unanswered.delete(method)) return
    // The daemon's own question, asked of no account: which accounts it holds.
    if (method === 'listAccounts') {
      answer({ result: [{ number: this.account }], id })
      return
    }
    if (!DAEMON_METHODS.has(method)) {
      answer({ error: { code: -32601, message: 'Method not implemented', data: null }, id })
      return
    }
    // A multi-account daemon answers a call that names no account, or one it does not hold, this way.
    if (typeof params.account !== 'string') {
      answer({ error: { code: -32602, message: 'Method requires valid account parameter', data: null }, id })
      return
    }
    if (params.account !== this.account) {
      answer({ error: { code: -32602, message: 'Specified account does not exist', data: null }, id })
      return
    }
    const failure = this.#failures.get(method)
    if (failure !== undefined) {
      this.#failures.delete(method)
      answer({ error: { data: null, ...failure }, id })
      return
    }
    const outcome = this.#answer(method, params)
    const asked = { method, params, id, via: socket.data.via }
    if ((method === 'send' || method === 'sendReaction') && 'result' in outcome) this.delivered.add(asked)
    if ('error' in outcome && JSON.stringify(outcome.error).includes('RATE_LIMIT_FAILURE'))
      this.limited.add(asked)
    answer(
      'error' in outcome ? { error: { data: null, ...outcome.error }, id } : { result: outcome.result, id },
    )
  }

  #answer(method: string, params: Record<string, unknown>): { result: unknown } | { error: JsonRpcError } {
    switch (method) {
      case 'send':
      case 'sendReaction': {
        const recipients = Array.isArray(params.recipient) ? params.recipient : []
        if (recipients.length === 0 && typeof params.groupId !== 'string') {
          return { error: { code: -1, message: 'No recipients given' } }
        }
        const timestamp = Date.now()
        const retry = this.#window?.retryAfterSeconds
        const limited = overWindow(this.#window)
          ? {
              type: 'RATE_LIMIT_FAILURE' as const,
              ...(retry === undefined ? {} : { retryAfterSeconds: retry }),
            }
          : undefined
        const results = recipients.map((id) =>
          sendResult(String(id), limited ?? this.#refusedRecipients.get(String(id))),
        )
        if (results.some((result) => result.type !== 'SUCCESS')) {
          const message = 'Failed to send message'
          return { error: { code: -1, message, data: { response: { timestamp, results } } } }
        }
        return { result: { timestamp, results } }
      }
      case 'listGroups':
        return { result: this.groups.map(listedGroup) }
      case 'getAttachment': {
        const bytes = typeof params.id === 'string' ? this.#attachments.get(params.id) : undefined
        if (bytes === undefined) return { error: { code: -1, message: 'Attachment file not found' } }
        return { result: { data: Buffer.from(bytes).toString('base64') } }
      }
      default:
        return { error: { code: -32601, message: 'Method not implemented' } }
    }
  }
}

/** The account-scoped methods the fake serves; any other is one signal-cli does not implement. */
const DAEMON_METHODS = new Set(['send', 'sendReaction', 'listGroups', 'getAttachment'])

/** Whether one more send goes past the rate window, counting it when it does not. */
function overWindow(window: { sends: number; ms: number; start: number; used: number } | undefined): boolean {
  if (window === undefined) return false
  const now = Date.now()
  if (now - window.start >= window.ms) {
    window.start = now
    window.used = 0
  }
  if (window.used >= window.sends) return true
  window.used += 1
  return false
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

/** signal-cli writes the JSON, then its newline, as two writes: a reader must join them. */
function writeLine(socket: Socket<Connection>, json: string): void {
  socket.write(json)
  socket.write('\n')
}

/** One recipient's entry in a send's `results`, the address in the form it was given. */
function sendResult(id: string, failure: RecipientFailure | undefined) {
  const recipientAddress = id.startsWith('+') ? { uuid: null, number: id } : { uuid: id, number: null }
  if (failure === undefined) return { recipientAddress, type: 'SUCCESS' }
  return { recipientAddress, ...failure }
}
