import type {
  IInvitedRoom,
  IJoinedRoom,
  ILeftRoom,
  IRoomEvent,
  ISyncResponse,
  MatrixClient,
  UploadResponse,
} from 'matrix-js-sdk'
import { Recorder } from './recorder.ts'
import { BOT, SERVER, type World } from './world.ts'

type Whoami = Awaited<ReturnType<MatrixClient['whoami']>>
type JoinedMembers = Awaited<ReturnType<MatrixClient['getJoinedRoomMembers']>>

/** One client-server API call as the fake received it, with what it answered. */
export interface RecordedCall {
  readonly method: string
  readonly path: string
  readonly query: Readonly<Record<string, string>>
  readonly body: unknown
  readonly status: number
  /** What it answered as it went on the wire: JSON, or '(bytes)' for media. */
  readonly answered: unknown
}

/** A Matrix error body, as the homeserver sends it. */
export interface MatrixErrorBody {
  readonly errcode: string
  readonly error: string
  readonly retry_after_ms?: number
}

interface Answer {
  readonly status: number
  readonly body: unknown
}

const ok = (body: unknown): Answer => ({ status: 200, body })
const error = (
  status: number,
  errcode: string,
  words: string,
  extra: Partial<MatrixErrorBody> = {},
): Answer => ({
  status,
  body: { errcode, error: words, ...extra } satisfies MatrixErrorBody,
})

/** How many timeline events one room gets in one sync, as a homeserver's default filter limits it. */
const TIMELINE_LIMIT = 50

/**
 * The client-server API as a homeserver serves it, on 127.0.0.1: whoami, /sync with since tokens
 * and long polling, joins and leaves, sends deduplicated by transaction id, joined members,
 * uploads and authenticated media downloads, and the errors a homeserver gives: M_UNKNOWN_TOKEN,
 * M_FORBIDDEN, M_LIMIT_EXCEEDED with retry_after_ms.
 */
export class FakeHomeserver {
  readonly calls = new Recorder<RecordedCall>()
  /** What the bot sent: room, type and content of each new event. */
  readonly sent = new Recorder<{ readonly roomId: string; readonly event: IRoomEvent }>()
  readonly #injected = new Map<string, Answer[]>()
  readonly #transactions = new Map<string, string>()
  readonly #waiting = new Set<() => void>()

  constructor(
    readonly world: World,
    readonly token: string,
  ) {}

  /** Makes the next `count` calls whose path ends with `endpoint` (`/sync`, `/send`) fail with this. */
  inject(endpoint: string, status: number, body: MatrixErrorBody, count = 1): void {
    const list = this.#injected.get(endpoint) ?? []
    for (let index = 0; index < count; index += 1) list.push({ status, body })
    this.#injected.set(endpoint, list)
  }

  /** Wakes the syncs waiting for something new. */
  changed(): void {
    for (const wake of this.#waiting) wake()
  }

  stop(): void {
    this.changed()
  }

  async handle(request: Request): Promise<Response> {
    const url = new URL(request.url)
    const path = url.pathname
    const query = Object.fromEntries(url.searchParams)
    const isUpload = path.startsWith('/_matrix/media/v3/upload')
    const body: unknown = isUpload
      ? new Uint8Array(await request.arrayBuffer())
      : request.method === 'GET'
        ? undefined
        : await request.json().catch(() => undefined)
    const answer = await this.#answer({ request, path, query, body })
    this.calls.add({
      method: request.method,
      path,
      query,
      body: isUpload ? '(bytes)' : body,
      status: answer.status,
      answered: answer.body instanceof Uint8Array ? '(bytes)' : answer.body,
    })
    if (answer.body instanceof Uint8Array) return new Response(answer.body, { status: answer.status })
    return Response.json(answer.body, { status: answer.status })
  }

  async #answer(call: {
    request: Request
    path: string
    query: Record<string, string>
    body: unknown
  }): Promise<Answer> {
    const { request, path, query, body } = call
    if (path === '/_matrix/client/versions')
      return ok({ versions: ['v1.11', 'v1.12'], unstable_features: {} })
    if (request.headers.get('authorization') !== `Bearer ${this.token}`) {
      return error(401, 'M_UNKNOWN_TOKEN', 'Invalid access token passed.')
    }
    for (const [endpoint, list] of this.#injected) {
      if (path.includes(endpoint) && list.length > 0) return list.shift() as Answer
    }
    const client = '/_matrix/client/v3'
    if (path === `${client}/account/whoami`)
      return ok({ user_id: BOT, device_id: 'FAKEDEVICE', is_guest: false } satisfies Whoami)
    if (path === `${client}/sync`) return this.#sync(query, request.signal)
    // What a full client (matrix-js-sdk's startClient) asks before it syncs: no rules, no extra capabilities.
    if (path === `${client}/pushrules/`) return ok({ global: {} })
    if (path === `${client}/capabilities`) return ok({ capabilities: {} })
    if (/^\/_matrix\/client\/v3\/user\/[^/]+\/filter$/.test(path)) return ok({ filter_id: 'filter1' })
    let match = new RegExp(`^${client}/join/([^/]+)$`).exec(path)
    if (match) return this.#join(decodeURIComponent(match[1] ?? ''))
    match = new RegExp(`^${client}/rooms/([^/]+)/leave$`).exec(path)
    if (match) return this.#leave(decodeURIComponent(match[1] ?? ''))
    match = new RegExp(`^${client}/rooms/([^/]+)/send/([^/]+)/([^/]+)$`).exec(path)
    if (match && request.method === 'PUT') {
      return this.#send(
        decodeURIComponent(match[1] ?? ''),
        decodeURIComponent(match[2] ?? ''),
        match[3] ?? '',
        body,
      )
    }
    match = new RegExp(`^${client}/rooms/([^/]+)/joined_members$`).exec(path)
    if (match) return this.#members(decodeURIComponent(match[1] ?? ''))
    if (path === '/_matrix/media/v3/upload' && request.method === 'POST') {
      const id = `media${this.world.media.size + 1}`
      this.world.media.set(id, {
        bytes: body as Uint8Array,
        type: request.headers.get('content-type') ?? 'application/octet-stream',
      })
      return ok({ content_uri: `mxc://${SERVER}/${id}` } satisfies UploadResponse)
    }
    match = /^\/_matrix\/client\/v1\/media\/download\/([^/]+)\/([^/]+)/.exec(path)
    if (match) {
      const stored = match[1] === SERVER ? this.world.media.get(match[2] ?? '') : undefined
      return stored === undefined
        ? error(404, 'M_NOT_FOUND', 'Not found')
        : { status: 200, body: stored.bytes }
    }
    return error(404, 'M_UNRECOGNIZED', 'Unrecognized request')
  }

  async #sync(query: Record<string, string>, signal: AbortSignal): Promise<Answer> {
    const since = query.since === undefined ? undefined : Number(query.since.replace(/^s/, ''))
    const timeout = Number(query.timeout ?? 0)
    if (since !== undefined && this.world.position <= since && timeout > 0) {
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer)
          this.#waiting.delete(wake)
          resolve()
        }
        const timer = setTimeout(wake, timeout)
        this.#waiting.add(wake)
        signal.addEventListener('abort', wake, { once: true })
      })
    }
    return ok(this.#syncResponse(since))
  }

  #syncResponse(since: number | undefined): ISyncResponse {
    const world = this.world
    const join: Record<string, IJoinedRoom> = {}
    const invite: Record<string, IInvitedRoom> = {}
    const leave: Record<string, ILeftRoom> = {}
    const after = since ?? 0
    for (const [roomId, room] of world.rooms) {
      const membership = world.membership(roomId, BOT)
      const fresh = world.stream.filter((streamed) => streamed.roomId === roomId && streamed.position > after)
      if (membership === 'join') {
        const joinedAt =
          world.stream.findLast(
            (s) =>
              s.roomId === roomId &&
              s.event.type === 'm.room.member' &&
              (s.event as { state_key?: string }).state_key === BOT,
          )?.position ?? 0
        // A first sync, or a room joined since: its whole state; otherwise only what happened.
        const whole = since === undefined || joinedAt > after
        const events = fresh.map((streamed) => streamed.event).slice(-TIMELINE_LIMIT)
        if (!whole && events.length === 0) continue
        join[roomId] = {
          summary: { 'm.heroes': [], 'm.joined_member_count': world.joinedMembers(roomId).length },
          state: { events: whole ? [...room.state.values()] : [] },
          timeline: { events, limited: fresh.length > TIMELINE_LIMIT, prev_batch: `s${after}` },
          ephemeral: { events: [] },
          account_data: { events: [] },
          unread_notifications: {},
        } satisfies IJoinedRoom
      } else if (membership === 'leave' && since !== undefined && fresh.length > 0) {
        leave[roomId] = {
          timeline: { events: fresh.map((s) => s.event), prev_batch: null },
          account_data: { events: [] },
        }
      }
    }
    for (const [roomId, invited] of world.invites) {
      if (invited.position > after && world.membership(roomId, BOT) === 'invite')
        invite[roomId] = { invite_state: { events: invited.state } }
    }
    return {
      next_batch: `s${world.position}`,
      rooms: { join, invite, leave, knock: {} },
      // The account's direct chats, as a client that made them keeps them (m.direct), on a first sync.
      account_data: {
        events:
          since === undefined
            ? [{ type: 'm.direct', content: { [world.alice.userId]: [world.directRoom] } }]
            : [],
      },
    }
  }

  #join(roomId: string): Answer {
    const membership = this.world.membership(roomId, BOT)
    if (membership !== 'invite' && membership !== 'join')
      return error(403, 'M_FORBIDDEN', 'You are not invited to this room.')
    this.world.append(
      roomId,
      this.world.stateEvent({
        sender: BOT,
        type: 'm.room.member',
        stateKey: BOT,
        content: { membership: 'join', displayname: 'Mycelo' },
      }),
    )
    this.changed()
    return ok({ room_id: roomId })
  }

  #leave(roomId: string): Answer {
    if (!this.world.rooms.has(roomId)) return error(404, 'M_NOT_FOUND', 'Unknown room')
    this.world.append(
      roomId,
      this.world.stateEvent({
        sender: BOT,
        type: 'm.room.member',
        stateKey: BOT,
        content: { membership: 'leave' },
      }),
    )
    this.world.invites.delete(roomId)
    this.changed()
    return ok({})
  }

  #send(roomId: string, type: string, txnId: string, content: unknown): Answer {
    if (this.world.membership(roomId, BOT) !== 'join') {
      return error(403, 'M_FORBIDDEN', `User ${BOT} not in room ${roomId}`)
    }
    // The same transaction id from the same token is the same event: a retry is not shown twice.
    const known = this.#transactions.get(`${roomId} ${txnId}`)
    if (known !== undefined) return ok({ event_id: known })
    const event = this.world.messageEvent(BOT, content as Record<string, unknown>, type)
    this.#transactions.set(`${roomId} ${txnId}`, event.event_id)
    this.world.append(roomId, event)
    this.sent.add({ roomId, event })
    this.changed()
    return ok({ event_id: event.event_id })
  }

  #members(roomId: string): Answer {
    if (this.world.membership(roomId, BOT) !== 'join')
      return error(403, 'M_FORBIDDEN', 'You aren’t a member of the room')
    const joined: JoinedMembers['joined'] = {}
    for (const member of this.world.joinedMembers(roomId)) {
      joined[member.state_key] = {
        display_name: String(member.content.displayname ?? member.state_key),
        avatar_url: '',
      }
    }
    return ok({ joined } satisfies JoinedMembers)
  }
}
