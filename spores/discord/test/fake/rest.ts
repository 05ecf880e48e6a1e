import {
  type APIAttachment,
  GatewayDispatchEvents,
  type GatewayMessageCreateDispatchData,
  type RESTError,
  type RESTGetAPIChannelResult,
  type RESTGetAPICurrentUserResult,
  type RESTGetAPIGatewayBotResult,
  type RESTGetAPIGuildMembersResult,
  type RESTGetCurrentApplicationResult,
  type RESTPostAPIChannelMessageJSONBody,
  type RESTPostAPIChannelMessageResult,
  type RESTRateLimit,
} from 'discord.js'
import type { FakeGateway } from './gateway.ts'
import { currentApplication, errorBody, gatewayBot, rateLimitBody } from './payloads.ts'
import { Recorder } from './recorder.ts'
import type { World } from './world.ts'

const API_PREFIX = '/api/v10'
const CONTENT_LIMIT = 2_000
/** How long Discord remembers a nonce for `enforce_nonce`: "the past few minutes". */
const NONCE_MEMORY_MS = 5 * 60_000

/** A file that arrived in a multipart upload. */
export interface UploadedFile {
  readonly field: string
  readonly name: string
  readonly contentType: string
  readonly bytes: Uint8Array
}

/** One REST request as the fake received it, and what it answered. */
export interface RecordedRequest {
  readonly method: string
  /** The route under `/api/v10`, e.g. `/channels/123/messages`. */
  readonly path: string
  readonly query: URLSearchParams
  readonly authorization: string | null
  readonly body: unknown
  /** Present for a multipart request only. */
  readonly files?: readonly UploadedFile[]
  readonly status: number
}

interface Hosted {
  readonly bytes: Uint8Array
  readonly contentType: string
}

/** Every body the fake answers with is one of the API's own result or error types. */
type Body =
  | RESTGetAPIGatewayBotResult
  | RESTGetAPICurrentUserResult
  | RESTGetCurrentApplicationResult
  | RESTGetAPIChannelResult
  | RESTPostAPIChannelMessageResult
  | RESTGetAPIGuildMembersResult
  | RESTRateLimit
  | RESTError

type Answer = { status: number; body?: Body; headers?: Record<string, string> }

export interface RestOptions {
  readonly world: World
  readonly gateway: FakeGateway
}

/**
 * The REST half of the fake: the routes a bot uses, each recorded in arrival order, with Discord's
 * error bodies for the refusals and its rate-limit headers on every answer.
 */
export class FakeRest {
  readonly requests = new Recorder<RecordedRequest>()
  /** Every message the bot created, as Discord stored it: who it pinged is in its mention fields. */
  readonly created = new Recorder<GatewayMessageCreateDispatchData>()
  readonly #world: World
  readonly #gateway: FakeGateway
  readonly #hosted = new Map<string, Hosted>()
  readonly #messages = new Map<string, Set<string>>()
  #rateLimited = 0
  #rateLimit: RateLimitShape = { retryAfter: 0.05, scope: 'user' }
  #window: { readonly messages: number; readonly seconds: number; start: number; used: number } | undefined
  /** Messages created with a nonce, by channel and nonce, for `enforce_nonce`. */
  readonly #nonces = new Map<
    string,
    { readonly at: number; readonly body: RESTPostAPIChannelMessageResult }
  >()
  readonly #refusedChannels = new Set<string>()
  readonly #overrides = new Map<string, Answer>()
  readonly #held = new Set<string>()

  constructor(options: RestOptions) {
    this.#world = options.world
    this.#gateway = options.gateway
  }

  /**
   * The next `count` message creations answer 429 as Discord does: `retry_after` seconds in the
   * body and the same in `Retry-After`, the scope in `X-RateLimit-Scope`, and for the global
   * limit `X-RateLimit-Global`. `Infinity` is a limit that never clears.
   */
  rateLimitNext(count = 1, shape: Partial<RateLimitShape> = {}): void {
    this.#rateLimited = count
    this.#rateLimit = { retryAfter: 0.05, scope: 'user', ...shape }
  }

  /**
   * From now on at most `messages` creations per `seconds`, as a route's bucket: the rest answer 429
   * with the time left in the window, as Discord does. `undefined` lifts it.
   */
  limitRate(rate: { messages: number; seconds: number } | undefined): void {
    this.#window = rate === undefined ? undefined : { ...rate, start: Date.now(), used: 0 }
  }

  /** Message creations in this channel answer 403 50013, as for a bot without Send Messages there. */
  refuseSendIn(channelId: string, refused = true): void {
    if (refused) this.#refusedChannels.add(channelId)
    else this.#refusedChannels.delete(channelId)
  }

  /** Answers every `method path` request with `status` from now on, as a broken Discord route would. */
  failRoute(method: string, path: string, status: number): void {
    this.#overrides.set(`${method} ${path}`, {
      status,
      body: errorBody(`${status}: injected by the test`, 0),
    })
  }

  /** Requests to `method path` are recorded and never answered, until `restoreRoute`. */
  holdRoute(method: string, path: string): void {
    this.#held.add(`${method} ${path}`)
  }

  /** Answers `method path` normally again. */
  restoreRoute(method: string, path: string): void {
    this.#overrides.delete(`${method} ${path}`)
    this.#held.delete(`${method} ${path}`)
  }

  /** Where `/gateway/bot` sends clients instead of the fake's gateway, such as a port nothing listens on. */
  gatewayUrl: string | undefined

  /** Serves `bytes` at a URL of the fake, for an attachment a client downloads. */
  host(options: { name: string; bytes: Uint8Array; contentType: string }): APIAttachment {
    const attachment = this.#world.attachment({
      name: options.name,
      contentType: options.contentType,
      size: options.bytes.byteLength,
    })
    this.#hosted.set(new URL(attachment.url).pathname, {
      bytes: options.bytes,
      contentType: options.contentType,
    })
    return attachment
  }

  /** Answers anything under /attachments (the fake's CDN) or /api/v10; null for other paths. */
  async handle(request: Request): Promise<Response | null> {
    const url = new URL(request.url)
    if (url.pathname.startsWith('/attachments/')) {
      const hosted = this.#hosted.get(url.pathname)
      if (hosted === undefined) return new Response('Not Found', { status: 404 })
      // Past its `ex`, or unsigned, a CDN URL answers 404 with Discord's own words.
      const expires = Number.parseInt(url.searchParams.get('ex') ?? '0', 16) * 1000
      if (Date.now() >= expires || this.#world.attachmentsValidUntil <= Date.now()) {
        return new Response('This content is no longer available.', { status: 404 })
      }
      return new Response(hosted.bytes, { headers: { 'content-type': hosted.contentType } })
    }
    if (!url.pathname.startsWith(API_PREFIX)) return null
    const path = url.pathname.slice(API_PREFIX.length)
    // A held route never answers: the client's own timeout is all that ends the request.
    if (this.#held.has(`${request.method} ${path}`)) return new Promise<Response>(() => {})
    const authorization = request.headers.get('authorization')
    const { body, files } = await readBody(request)
    const answer =
      authorization === `Bot ${this.#world.token}`
        ? this.#route({ method: request.method, path, query: url.searchParams, body, files })
        : { status: 401, body: errorBody('401: Unauthorized', 0) }
    this.requests.add({
      method: request.method,
      path,
      query: url.searchParams,
      authorization,
      body,
      ...(files === undefined ? {} : { files }),
      status: answer.status,
    })
    return respond(answer, path)
  }

  #route(request: {
    method: string
    path: string
    query: URLSearchParams
    body: unknown
    files: readonly UploadedFile[] | undefined
  }): Answer {
    const { method, path } = request
    const override = this.#overrides.get(`${method} ${path}`)
    if (override !== undefined) return override
    if (method === 'GET' && path === '/gateway/bot') {
      return { status: 200, body: gatewayBot(this.gatewayUrl ?? this.#gateway.url) }
    }
    if (method === 'GET' && path === '/users/@me') return { status: 200, body: this.#world.bot }
    if (method === 'GET' && path === '/applications/@me') {
      return { status: 200, body: this.application() }
    }
    const channel = /^\/channels\/(\d+)$/.exec(path)
    if (method === 'GET' && channel?.[1] !== undefined) {
      const found = this.#world.channel(channel[1])
      return found === undefined ? unknown('Channel', 10_003) : { status: 200, body: found }
    }
    const messages = /^\/channels\/(\d+)\/messages$/.exec(path)
    if (method === 'POST' && messages?.[1] !== undefined) {
      return this.#createMessage(messages[1], request.body, request.files)
    }
    const reaction = /^\/channels\/(\d+)\/messages\/(\d+)\/reactions\/([^/]+)\/@me$/.exec(path)
    if (method === 'PUT' && reaction?.[1] !== undefined && reaction[2] !== undefined) {
      return this.#messages.get(reaction[1])?.has(reaction[2]) === true
        ? { status: 204 }
        : unknown('Message', 10_008)
    }
    const members = /^\/guilds\/(\d+)\/members$/.exec(path)
    if (method === 'GET' && members?.[1] !== undefined) return this.#listMembers(members[1], request.query)
    return { status: 404, body: errorBody('404: Not Found', 0) }
  }

  /** What GET /applications/@me answers for this world. */
  application(): RESTGetCurrentApplicationResult {
    const world = this.#world
    return currentApplication({ id: world.applicationId, bot: world.bot, flags: world.applicationFlags })
  }

  #createMessage(channelId: string, body: unknown, files: readonly UploadedFile[] | undefined): Answer {
    if (this.#world.channel(channelId) === undefined) return unknown('Channel', 10_003)
    if (this.#refusedChannels.has(channelId)) {
      return { status: 403, body: errorBody('Missing Permissions', 50_013) }
    }
    if (this.#rateLimited > 0) {
      this.#rateLimited -= 1
      return rateLimited(this.#rateLimit)
    }
    const windowed = this.#windowed()
    if (windowed !== undefined) return windowed
    const json = (body ?? {}) as RESTPostAPIChannelMessageJSONBody
    // With enforce_nonce, a nonce seen from the bot in the last few minutes answers that message again.
    const nonceKey =
      json.enforce_nonce === true && json.nonce !== undefined ? `${channelId}:${json.nonce}` : undefined
    const seen = nonceKey === undefined ? undefined : this.#nonces.get(nonceKey)
    if (seen !== undefined && Date.now() - seen.at < NONCE_MEMORY_MS) return { status: 200, body: seen.body }
    const content = json.content ?? ''
    if (content.length > CONTENT_LIMIT) {
      return invalidForm('content', 'BASE_TYPE_MAX_LENGTH', `Must be ${CONTENT_LIMIT} or fewer in length.`)
    }
    if (content.trim() === '' && (files ?? []).length === 0) {
      return { status: 400, body: errorBody('Cannot send an empty message', 50_006) }
    }
    const attachments = (files ?? []).map((file) =>
      this.host({ name: file.name, bytes: file.bytes, contentType: file.contentType }),
    )
    const message = {
      ...this.#world.message({
        channelId,
        author: { user: this.#world.bot, nick: null },
        content,
        attachments,
      }),
      ...this.#world.mentionsOf(content, json.allowed_mentions),
      ...(json.nonce === undefined ? {} : { nonce: json.nonce }),
    }
    const known = this.#messages.get(channelId) ?? new Set()
    this.#messages.set(channelId, known.add(message.id))
    this.created.add(message)
    // Discord echoes a bot's own message back over the gateway, as it does every message.
    this.#gateway.dispatch(GatewayDispatchEvents.MessageCreate, message)
    const { member: _member, guild_id: _guild, channel_type: _type, ...created } = message
    if (nonceKey !== undefined) this.#nonces.set(nonceKey, { at: Date.now(), body: created })
    return { status: 200, body: created }
  }

  #windowed(): Answer | undefined {
    const window = this.#window
    if (window === undefined) return undefined
    const now = Date.now()
    if (now - window.start >= window.seconds * 1_000) {
      window.start = now
      window.used = 0
    }
    if (window.used < window.messages) {
      window.used += 1
      return undefined
    }
    const left = Math.max(0.001, (window.start + window.seconds * 1_000 - now) / 1_000)
    return rateLimited({ retryAfter: Number(left.toFixed(3)), scope: 'user' })
  }

  /** Remembers a message the test injected, so a reaction to it finds it. */
  rememberMessage(channelId: string, messageId: string): void {
    const known = this.#messages.get(channelId) ?? new Set()
    this.#messages.set(channelId, known.add(messageId))
  }

  #listMembers(guildId: string, query: URLSearchParams): Answer {
    if (guildId !== this.#world.guildId) return unknown('Guild', 10_004)
    if (!this.#world.portalIntents.guildMembers) {
      return { status: 403, body: errorBody('Missing Access', 50_001) }
    }
    const limit = Number(query.get('limit') ?? '1')
    if (!Number.isInteger(limit) || limit < 1 || limit > 1_000) {
      return invalidForm('limit', 'NUMBER_TYPE_MAX', 'int value should be less than or equal to 1000.')
    }
    const after = BigInt(query.get('after') ?? '0')
    const members = this.#world.people
      .map((person) => this.#world.member(person))
      .filter((member) => BigInt(member.user.id) > after)
      .sort((a, b) => (BigInt(a.user.id) < BigInt(b.user.id) ? -1 : 1))
      .slice(0, limit)
    return { status: 200, body: members }
  }
}

async function readBody(request: Request): Promise<{ body: unknown; files?: UploadedFile[] }> {
  const type = request.headers.get('content-type') ?? ''
  if (type.startsWith('multipart/form-data')) {
    const form = await request.formData()
    const files: UploadedFile[] = []
    let body: unknown
    for (const [field, value] of form.entries()) {
      if (typeof value === 'string') {
        if (field === 'payload_json') body = JSON.parse(value)
        continue
      }
      const bytes = new Uint8Array(await value.arrayBuffer())
      files.push({ field, name: value.name, contentType: value.type, bytes })
    }
    return { body, files }
  }
  if (type.startsWith('application/json')) return { body: await request.json() }
  return { body: undefined }
}

function respond(answer: Answer, path: string): Response {
  const headers: Record<string, string> = {
    'x-ratelimit-limit': '50',
    'x-ratelimit-remaining': '49',
    'x-ratelimit-reset': String(Date.now() / 1_000 + 1),
    'x-ratelimit-reset-after': '1',
    'x-ratelimit-bucket': `fake-${path.replace(/\d+/g, ':id')}`,
    ...answer.headers,
  }
  if (answer.status === 204) return new Response(null, { status: 204, headers })
  return Response.json(answer.body ?? null, { status: answer.status, headers })
}

/** How the next 429s look: seconds to wait, and which limit was hit. */
export interface RateLimitShape {
  readonly retryAfter: number
  readonly scope: 'user' | 'global' | 'shared'
}

function rateLimited(shape: RateLimitShape): Answer {
  const global = shape.scope === 'global'
  const seconds = String(shape.retryAfter)
  return {
    status: 429,
    body: rateLimitBody(shape.retryAfter, global),
    headers: {
      'retry-after': seconds,
      'x-ratelimit-scope': shape.scope,
      ...(global
        ? { 'x-ratelimit-global': 'true' }
        : { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset-after': seconds }),
    },
  }
}

function unknown(what: string, code: number): Answer {
  return { status: 404, body: errorBody(`Unknown ${what}`, code) }
}

function invalidForm(field: string, code: string, message: string): Answer {
  return {
    status: 400,
    body: errorBody('Invalid Form Body', 50_035, { [field]: { _errors: [{ code, message }] } }),
  }
}
