import type { Server, ServerWebSocket } from 'bun'
import { BOOK_CLUB, BOT_NUMBER, type Group, type ReceivePayload } from './frames.ts'
import { Recorder } from './recorder.ts'

/** One REST call the fake API answered (websocket upgrades included). */
export interface RestCall {
  readonly method: string
  readonly path: string
  readonly body: unknown
  readonly authorization: string | null
}

export type RestRoute = 'send' | 'reactions' | 'groups'

export interface RestFailure {
  readonly status: number
  readonly error: string
}

export interface FakeRestApiOptions {
  readonly account?: string
  readonly groups?: readonly Group[]
  /** What /v1/about reports; the container must run in json-rpc mode for the receive websocket. */
  readonly mode?: 'json-rpc' | 'normal' | 'native'
  /** When set, every call must carry `Authorization: Bearer <token>`, as a proxy in front would demand. */
  readonly token?: string
}

/**
 * A stand-in for the signal-cli-rest-api container in json-rpc mode: POST /v2/send,
 * POST /v1/reactions/<number>, GET /v1/groups/<number>, and the websocket at /v1/receive/<number>
 * that carries each receive payload as one text message.
 */
export class FakeRestApi {
  readonly account: string
  readonly calls = new Recorder<RestCall>()
  groups: readonly Group[]
  readonly #token: string | undefined
  readonly #mode: string
  readonly #sockets = new Set<ServerWebSocket<unknown>>()
  readonly #failures = new Map<RestRoute, RestFailure>()
  #server: Server<unknown> | undefined
  #port = 0

  private constructor(options: FakeRestApiOptions) {
    this.account = options.account ?? BOT_NUMBER
    this.groups = options.groups ?? [BOOK_CLUB]
    this.#token = options.token
    this.#mode = options.mode ?? 'json-rpc'
  }

  static start(options: FakeRestApiOptions = {}): FakeRestApi {
    const api = new FakeRestApi(options)
    api.#serve()
    return api
  }

  get url(): string {
    return `http://127.0.0.1:${this.#port}`
  }

  get sockets(): number {
    return this.#sockets.size
  }

  push(payload: ReceivePayload): void {
    this.pushText(JSON.stringify(payload))
  }

  pushText(text: string): void {
    for (const socket of this.#sockets) socket.send(text)
  }

  failNext(route: RestRoute, failure: RestFailure): void {
    this.#failures.set(route, failure)
  }

  /** Closes every websocket and stops answering, as a container that went down. */
  goDown(): void {
    for (const socket of this.#sockets) socket.close(1001, 'going away')
    this.#sockets.clear()
    void this.#server?.stop(true)
    this.#server = undefined
  }

  comeBack(): void {
    this.#serve()
  }

  close(): void {
    this.goDown()
  }

  #serve(): void {
    this.#server = Bun.serve({
      hostname: '127.0.0.1',
      port: this.#port,
      fetch: (request, server) => this.#fetch(request, server),
      websocket: {
        open: (socket) => {
          this.#sockets.add(socket)
        },
        message: () => {},
        close: (socket) => {
          this.#sockets.delete(socket)
        },
      },
    })
    this.#port = this.#server.port ?? 0
  }

  async #fetch(request: Request, server: Server<unknown>): Promise<Response | undefined> {
    const url = new URL(request.url)
    const path = decodeURIComponent(url.pathname)
    const text = await request.text()
    const body: unknown = text === '' ? undefined : JSON.parse(text)
    const authorization = request.headers.get('authorization')
    this.calls.add({ method: request.method, path, body, authorization })
    if (this.#token !== undefined && authorization !== `Bearer ${this.#token}`) {
      return Response.json({ error: 'Unauthorized' }, { status: 401 })
    }
    const mine = (route: string) => path === `${route}/${this.account}`
    if (request.method === 'GET' && path === '/v1/about') {
      return Response.json({
        versions: ['v1', 'v2'],
        build: 2,
        mode: this.#mode,
        version: '0.92',
        capabilities: {},
      })
    }
    if (request.method === 'GET' && path === '/v1/accounts') return Response.json([this.account])
    if (request.method === 'GET' && mine('/v1/receive')) {
      // Outside json-rpc mode the route is a plain HTTP poll, so an upgrade is never accepted.
      if (this.#mode !== 'json-rpc') return Response.json([])
      return server.upgrade(request, { data: undefined })
        ? undefined
        : Response.json({ error: 'expected a websocket' }, { status: 400 })
    }
    if (request.method === 'POST' && path === '/v2/send') return this.#answer('send', () => this.#send(body))
    if (request.method === 'POST' && mine('/v1/reactions')) {
      return this.#answer('reactions', () => new Response(null, { status: 204 }))
    }
    if (request.method === 'GET' && mine('/v1/groups')) {
      return this.#answer('groups', () => Response.json(this.groups.map(groupEntry)))
    }
    return Response.json({ error: 'Not found' }, { status: 404 })
  }

  #answer(route: RestRoute, respond: () => Response): Response {
    const failure = this.#failures.get(route)
    if (failure === undefined) return respond()
    this.#failures.delete(route)
    return Response.json({ error: failure.error }, { status: failure.status })
  }

  #send(body: unknown): Response {
    const { number, recipients } = (body ?? {}) as { number?: unknown; recipients?: unknown }
    if (!Array.isArray(recipients) || recipients.length === 0) {
      return Response.json(
        { error: "Couldn't process request - please provide at least one recipient" },
        { status: 400 },
      )
    }
    if (number !== this.account) {
      return Response.json(
        { error: "Couldn't process request - please provide a valid number" },
        { status: 400 },
      )
    }
    return Response.json({ timestamp: String(Date.now()) }, { status: 201 })
  }
}

/** The REST API names a group `group.` + base64 of signal-cli's id, and keeps that id as internal_id. */
export function restGroupId(group: Group): string {
  return `group.${Buffer.from(group.id).toString('base64')}`
}

function groupEntry(group: Group) {
  return {
    name: group.name,
    id: restGroupId(group),
    internal_id: group.id,
    members: group.members.map((member) => member.number),
    blocked: false,
    pending_invites: [],
    pending_requests: [],
    invite_link: '',
    admins: group.members.slice(0, 1).map((member) => member.number),
  }
}
