// Every payload the fake Discord sends that is not a piece of its world (users, channels, messages,
// members, which world.ts types one by one): each is typed against discord-api-types, so `bun run
// typecheck` fails the moment one drifts from what the API sends, and fake-fidelity.test.ts checks
// that what goes over the wire is exactly these values.
import {
  type APIApplication,
  type APIGatewayBotInfo,
  type APIUser,
  type ApplicationFlags,
  type GatewayDispatchEvents,
  type GatewayDispatchPayload,
  type GatewayHeartbeatAck,
  type GatewayHello,
  type GatewayInvalidSession,
  GatewayOpcodes,
  type GatewayReceivePayload,
  type RESTError,
  type RESTRateLimit,
} from 'discord.js'

/** The data a dispatch of event `T` carries. */
export type DispatchData<T extends GatewayDispatchEvents> = Extract<GatewayDispatchPayload, { t: T }>['d']

/** A frame the fake sends on its gateway: one of those discord-api-types says a client receives. */
export type ServerFrame = GatewayReceivePayload

export function hello(heartbeatInterval: number): GatewayHello {
  return { op: GatewayOpcodes.Hello, d: { heartbeat_interval: heartbeatInterval }, s: null, t: null }
}

/** Discord's ACK has no `d` at all: the key is undefined here, so JSON leaves it out. */
export function heartbeatAck(): GatewayHeartbeatAck {
  return { op: GatewayOpcodes.HeartbeatAck, d: undefined, s: null, t: null }
}

export function invalidSession(resumable: boolean): GatewayInvalidSession {
  return { op: GatewayOpcodes.InvalidSession, d: resumable, s: null, t: null }
}

/** A dispatch of event `t` with its data, numbered `s` in its session (RESUMED's data is undefined). */
export function dispatchFrame<T extends GatewayDispatchEvents>(
  t: T,
  d: DispatchData<T>,
  s: number,
): ServerFrame {
  return { op: GatewayOpcodes.Dispatch, t, d, s } as Extract<GatewayDispatchPayload, { t: T }>
}

/** What GET /applications/@me answers: every field the API type requires, as Discord fills them. */
export function currentApplication(options: { id: string; bot: APIUser; flags: number }): APIApplication {
  return {
    id: options.id,
    name: 'Mycelo',
    icon: null,
    description: '',
    bot_public: false,
    bot_require_code_grant: false,
    bot: options.bot,
    summary: '',
    verify_key: '1f4c4ab31b9d4c5e1bd4d49d1f2f0c3a6b0fb3b7c4ad5e6f7081920a1b2c3d4e',
    team: null,
    flags: options.flags as ApplicationFlags,
    flags_new: String(options.flags),
    redirect_uris: [],
    interactions_endpoint_url: null,
    role_connections_verification_url: null,
  }
}

export function gatewayBot(url: string): APIGatewayBotInfo {
  return {
    url,
    shards: 1,
    session_start_limit: { total: 1_000, remaining: 999, reset_after: 86_400_000, max_concurrency: 1 },
  }
}

export function rateLimitBody(retryAfter: number, global: boolean): RESTRateLimit {
  return { message: 'You are being rate limited.', retry_after: retryAfter, global }
}

/** Discord's JSON error body: a message and a numeric code, and for a form, what is wrong where. */
export function errorBody(message: string, code: number, errors?: RESTError['errors']): RESTError {
  return errors === undefined ? { message, code } : { message, code, errors }
}
