import type { ServerWebSocket } from 'bun'
import {
  GatewayCloseCodes,
  GatewayDispatchEvents,
  GatewayIntentBits,
  GatewayOpcodes,
  type GatewayReadyDispatchData,
  type GatewayRequestGuildMembersData,
} from 'discord.js'
import { guildCreate } from './guild-create.ts'
import {
  type DispatchData,
  dispatchFrame,
  heartbeatAck,
  hello,
  invalidSession,
  type ServerFrame,
} from './payloads.ts'
import { Recorder } from './recorder.ts'
import type { World } from './world.ts'

const PRIVILEGED = {
  guildMembers: GatewayIntentBits.GuildMembers,
  guildPresences: GatewayIntentBits.GuildPresences,
  messageContent: GatewayIntentBits.MessageContent,
} as const

/** Discord sends at most this many members in one GUILD_MEMBERS_CHUNK. */
const MEMBER_CHUNK = 1_000

/** What each socket carries: the path it connected on, and the session once identified or resumed. */
export interface GatewaySocketData {
  readonly path: string
  readonly query: URLSearchParams
  session?: Session
}

type GatewaySocket = ServerWebSocket<GatewaySocketData>

/** One gateway session: its sequence, the dispatches it was sent (for RESUME replay) and its socket. */
interface Session {
  readonly id: string
  sequence: number
  readonly sent: ServerFrame[]
  socket?: GatewaySocket
}

/** A frame the fake received from a client, for tests to assert on. */
export interface ReceivedFrame {
  readonly op: number
  readonly d: unknown
  /** `/gateway` for a fresh connection, `/resume` for the resume_gateway_url. */
  readonly path: string
}

export interface GatewayOptions {
  readonly world: World
  readonly heartbeatInterval: number
  readonly origin: () => string
}

/**
 * The gateway half of the fake: HELLO, IDENTIFY → READY and GUILD_CREATE, heartbeats and their
 * ACKs, dispatches, RESUME → replay and RESUMED, and the close codes Discord uses to refuse.
 */
export class FakeGateway {
  readonly received = new Recorder<ReceivedFrame>()
  readonly #world: World
  readonly #heartbeatInterval: number
  readonly #origin: () => string
  readonly #sessions = new Map<string, Session>()
  readonly #sockets = new Set<GatewaySocket>()
  /** While set, an IDENTIFY is recorded and never answered: a READY that never comes. */
  withholdReady = false
  /** When set, the next IDENTIFY is answered by closing with this code instead of READY. */
  closeNextIdentifyWith: number | undefined
  /** Sockets opened while silent: their HELLO arrives once the fake speaks again. */
  readonly #unheard = new Set<GatewaySocket>()
  #silent = false

  constructor(options: GatewayOptions) {
    this.#world = options.world
    this.#heartbeatInterval = options.heartbeatInterval
    this.#origin = options.origin
  }

  get url(): string {
    return `${this.#origin().replace(/^http/, 'ws')}/gateway`
  }

  get resumeUrl(): string {
    return `${this.#origin().replace(/^http/, 'ws')}/resume`
  }

  /** Connected sockets that hold a live session. */
  get liveSockets(): number {
    return [...this.#sockets].filter((socket) => socket.data.session !== undefined).length
  }

  open(socket: GatewaySocket): void {
    this.#sockets.add(socket)
    if (this.#silent) {
      this.#unheard.add(socket)
      return
    }
    this.#hello(socket)
  }

  /**
   * Keeps every socket open, and accepts new ones, but sends nothing on any of them: no heartbeat
   * ACK, no dispatch, no HELLO. What clients send meanwhile is lost. A half-open connection.
   */
  goSilent(): void {
    this.#silent = true
  }

  /** Speaks again: a socket opened while silent gets its HELLO now, as if it had been delayed. */
  speakAgain(): void {
    this.#silent = false
    for (const socket of this.#unheard) if (this.#sockets.has(socket)) this.#hello(socket)
    this.#unheard.clear()
  }

  #hello(socket: GatewaySocket): void {
    // The fake speaks JSON only, uncompressed; a client asking for ETF could not read it.
    const encoding = socket.data.query.get('encoding') ?? 'json'
    if (encoding !== 'json') {
      socket.close(GatewayCloseCodes.DecodeError, `encoding ${encoding} is not served here`)
      return
    }
    if (socket.data.query.get('v') !== '10') {
      socket.close(GatewayCloseCodes.InvalidAPIVersion, 'Invalid API version')
      return
    }
    send(socket, hello(this.#heartbeatInterval))
  }

  message(socket: GatewaySocket, raw: string | Buffer): void {
    if (this.#silent) return
    let frame: { op?: unknown; d?: unknown }
    try {
      frame = JSON.parse(typeof raw === 'string' ? raw : raw.toString('utf8'))
    } catch {
      socket.close(GatewayCloseCodes.DecodeError, 'Error while decoding payload.')
      return
    }
    const op = typeof frame.op === 'number' ? frame.op : -1
    this.received.add({ op, d: frame.d, path: socket.data.path })
    switch (op) {
      case GatewayOpcodes.Heartbeat:
        send(socket, heartbeatAck())
        return
      case GatewayOpcodes.Identify:
        if (this.withholdReady) return
        this.#identify(socket, frame.d as { token?: string; intents?: number })
        return
      case GatewayOpcodes.Resume:
        this.#resume(socket, frame.d as { token?: string; session_id?: string; seq?: number })
        return
      case GatewayOpcodes.RequestGuildMembers:
        if (socket.data.session === undefined)
          socket.close(GatewayCloseCodes.NotAuthenticated, 'Not authenticated.')
        else this.#requestMembers(socket.data.session, frame.d as GatewayRequestGuildMembersData)
        return
      case GatewayOpcodes.PresenceUpdate:
      case GatewayOpcodes.VoiceStateUpdate:
        if (socket.data.session === undefined)
          socket.close(GatewayCloseCodes.NotAuthenticated, 'Not authenticated.')
        return
      default:
        socket.close(GatewayCloseCodes.UnknownOpcode, 'Unknown opcode.')
    }
  }

  close(socket: GatewaySocket, code: number): void {
    this.#sockets.delete(socket)
    const session = socket.data.session
    if (session === undefined) return
    if (session.socket === socket) session.socket = undefined
    // A client closing with 1000 or 1001 ends its session; any other closure leaves it resumable.
    if (code === 1000 || code === 1001) this.#sessions.delete(session.id)
  }

  /**
   * Sends an event to every live session, as Discord fans one event out to each connected bot.
   * A session whose socket is down keeps it for the replay that follows its RESUME.
   */
  dispatch<T extends GatewayDispatchEvents>(t: T, d: DispatchData<T>): void {
    for (const session of this.#sessions.values()) this.#dispatchTo(session, t, d)
  }

  /** Closes every socket with `code`, as Discord does when it drops or refuses a connection. */
  drop(code: number = GatewayCloseCodes.UnknownError): void {
    for (const socket of this.#sockets) socket.close(code, 'Dropped by the fake Discord')
  }

  /** Cuts every socket without a closing handshake: the client sees an abnormal closure (1006). */
  sever(): void {
    for (const socket of this.#sockets) socket.terminate()
  }

  #identify(socket: GatewaySocket, d: { token?: string; intents?: number }): void {
    if (socket.data.session !== undefined) {
      socket.close(GatewayCloseCodes.AlreadyAuthenticated, 'Already authenticated.')
      return
    }
    const forced = this.closeNextIdentifyWith
    if (forced !== undefined) {
      this.closeNextIdentifyWith = undefined
      socket.close(forced, 'Refused by the fake Discord')
      return
    }
    if (d.token !== this.#world.token) {
      socket.close(GatewayCloseCodes.AuthenticationFailed, 'Authentication failed.')
      return
    }
    const intents = d.intents ?? 0
    const portal = this.#world.portalIntents
    const refused =
      (intents & PRIVILEGED.guildPresences) !== 0 ||
      ((intents & PRIVILEGED.messageContent) !== 0 && !portal.messageContent) ||
      ((intents & PRIVILEGED.guildMembers) !== 0 && !portal.guildMembers)
    if (refused) {
      socket.close(GatewayCloseCodes.DisallowedIntents, 'Disallowed intent(s).')
      return
    }
    const session: Session = { id: crypto.randomUUID().replaceAll('-', ''), sequence: 0, sent: [], socket }
    this.#sessions.set(session.id, session)
    socket.data.session = session
    const ready: GatewayReadyDispatchData = {
      v: 10,
      user: { ...this.#world.bot, verified: true, mfa_enabled: false },
      guilds: [{ id: this.#world.guildId, unavailable: true }],
      session_id: session.id,
      resume_gateway_url: this.resumeUrl,
      shard: [0, 1],
      application: {
        id: this.#world.applicationId,
        flags: this.#world.applicationFlags,
        flags_new: String(this.#world.applicationFlags),
      },
    }
    this.#dispatchTo(session, GatewayDispatchEvents.Ready, ready)
    this.#dispatchTo(session, GatewayDispatchEvents.GuildCreate, guildCreate(this.#world))
  }

  #resume(socket: GatewaySocket, d: { token?: string; session_id?: string; seq?: number }): void {
    const session = d.session_id === undefined ? undefined : this.#sessions.get(d.session_id)
    if (d.token !== this.#world.token) {
      socket.close(GatewayCloseCodes.AuthenticationFailed, 'Authentication failed.')
      return
    }
    if (session === undefined) {
      send(socket, invalidSession(false))
      return
    }
    session.socket = socket
    socket.data.session = session
    const after = d.seq ?? 0
    for (const event of session.sent) if ((event.s ?? 0) > after) send(socket, event)
    // RESUMED carries no `d`: JSON leaves an undefined member out.
    this.#dispatchTo(session, GatewayDispatchEvents.Resumed, undefined)
  }

  /**
   * What discord.js's guild.members.fetch() asks for: the members whose username or nickname starts
   * with `query` (or the listed `user_ids`), at most `limit` (0 for all), in chunks of 1000.
   */
  #requestMembers(session: Session, d: GatewayRequestGuildMembersData): void {
    if (d.guild_id !== this.#world.guildId) return
    const query = 'query' in d ? (d.query ?? '').toLowerCase() : ''
    const limit = 'limit' in d ? d.limit : 0
    const wanted = 'user_ids' in d && d.user_ids !== undefined ? [d.user_ids].flat() : undefined
    const matching = this.#world.people
      .filter((person) =>
        wanted === undefined
          ? [person.user.username, person.nick ?? ''].some((name) => name.toLowerCase().startsWith(query))
          : wanted.includes(person.user.id),
      )
      .slice(0, limit === 0 ? undefined : limit)
      .map((person) => this.#world.member(person))
    const chunkCount = Math.max(1, Math.ceil(matching.length / MEMBER_CHUNK))
    for (let index = 0; index < chunkCount; index += 1) {
      this.#dispatchTo(session, GatewayDispatchEvents.GuildMembersChunk, {
        guild_id: d.guild_id,
        members: matching.slice(index * MEMBER_CHUNK, (index + 1) * MEMBER_CHUNK),
        chunk_index: index,
        chunk_count: chunkCount,
        ...(d.nonce === undefined ? {} : { nonce: d.nonce }),
      })
    }
  }

  #dispatchTo<T extends GatewayDispatchEvents>(session: Session, t: T, d: DispatchData<T>): void {
    session.sequence += 1
    const event = dispatchFrame(t, d, session.sequence)
    session.sent.push(event)
    // Kept for the replay a RESUME asks for, even while silent.
    if (session.socket !== undefined && !this.#silent) send(session.socket, event)
  }
}

function send(socket: GatewaySocket, payload: ServerFrame): void {
  socket.send(JSON.stringify(payload))
}
