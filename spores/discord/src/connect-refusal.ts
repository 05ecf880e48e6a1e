import type { TranslatableRef } from '@mycelo/septum'
import { GatewayCloseCodes, HTTPError } from 'discord.js'

/**
 * The English text of every connect refusal. translations/en.yaml holds the same sentences under
 * `connect.*` (a test keeps them equal), so a core that renders the error's ref can translate it.
 */
export const CONNECT_WORDING = {
  token_rejected:
    'Discord rejected the bot token, so the bot cannot log in. To fix it: Discord Developer Portal → ' +
    'Applications → your bot → Bot → Reset Token, then save the new token in the token setting of the ' +
    'discord spore: it connects again with it at once.',
  intents_disallowed:
    'Discord refused the gateway connection because a privileged intent the bot needs is not enabled: ' +
    '{intents}. To fix it: Discord Developer Portal → Applications → your bot → Bot → Privileged ' +
    'Gateway Intents, switch on {intents} and save: the bot tries again by itself.',
  failed: 'Could not connect to Discord: {reason}',
  unavailable:
    'Discord could not be reached ({reason}). The discord spore keeps trying again by itself, waiting ' +
    'longer each time; nothing to do unless it lasts: then check that this machine reaches discord.com.',
  gateway_closed:
    'The Discord gateway ({gateway}) closed the connection before the bot was ready. If it lasts, check ' +
    'Discord’s status page; the bot keeps trying again by itself.',
  handshake_timed_out:
    'Discord did not open the gateway connection within {seconds} s. The discord spore keeps trying ' +
    'again by itself, waiting longer each time; if it lasts, check that this machine reaches Discord.',
  ready_timed_out:
    'The Discord gateway took the login but was not ready within {seconds} s. The discord spore keeps ' +
    'trying again by itself, waiting longer each time; if it lasts, check Discord’s status page.',
  gateway_unreachable:
    'The Discord gateway ({gateway}) could not be reached. Check that this machine can open WebSocket ' +
    'connections to Discord (a firewall or proxy may block them); the bot keeps trying again by itself.',
} as const

export type ConnectRefusal = keyof typeof CONNECT_WORDING

/** Discord unavailable or slow rather than refusing: the hypha tries again by itself. */
const TRANSIENT: ReadonlySet<ConnectRefusal> = new Set([
  'unavailable',
  'handshake_timed_out',
  'ready_timed_out',
])

/**
 * The portal's own labels for the privileged intents. The gateway is asked for Message Content
 * only; Server Members is needed by the member list alone, which names it when refused.
 */
export const INTENT_LABELS = {
  messageContent: 'Message Content Intent',
  guildMembers: 'Server Members Intent',
} as const

/** connect() rejected: the message is log-ready English, `ref` the same sentence as a catalogue key. */
export class DiscordConnectError extends Error {
  readonly refusal: ConnectRefusal
  readonly ref: TranslatableRef
  /** Discord was unavailable rather than refusing: trying again later can work. */
  readonly transient: boolean

  constructor(refusal: ConnectRefusal, params: Readonly<Record<string, string>>, cause?: unknown) {
    super(renderWording(CONNECT_WORDING[refusal], params), cause === undefined ? undefined : { cause })
    this.name = 'DiscordConnectError'
    this.refusal = refusal
    this.ref = { domain: 'discord', key: `connect.${refusal}`, params }
    this.transient = TRANSIENT.has(refusal)
  }
}

/** Fills `{name}` placeholders; the wording uses nothing richer, so this matches ICU's rendering. */
export function renderWording(template: string, params: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => params[name] ?? whole)
}

export interface DiagnoseOptions {
  readonly error: unknown
  /** The code the gateway last closed with, if it closed before READY. */
  readonly closeCode: number | undefined
}

/** Network failures of a REST call: Discord (or the way to it) is down, not refusing. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'ConnectionRefused',
])

/** Turns a failed login into the refusal an operator can act on. */
export function diagnoseConnectFailure(options: DiagnoseOptions): DiscordConnectError {
  const { error, closeCode } = options
  if (error instanceof DiscordConnectError) return error
  const code = (error as { code?: unknown } | null)?.code
  if (code === 'TokenInvalid' || closeCode === GatewayCloseCodes.AuthenticationFailed) {
    return new DiscordConnectError('token_rejected', {}, error)
  }
  if (closeCode === GatewayCloseCodes.DisallowedIntents) {
    return new DiscordConnectError('intents_disallowed', { intents: INTENT_LABELS.messageContent }, error)
  }
  const reason = error instanceof Error ? error.message : String(error)
  if (error instanceof HTTPError && error.status >= 500) {
    return new DiscordConnectError('unavailable', { reason: `HTTP ${error.status} from ${error.url}` }, error)
  }
  // A REST call that outlived its timeout is aborted: Discord is slow or unreachable, not refusing.
  if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')) {
    return new DiscordConnectError('unavailable', { reason: `a request timed out (${reason})` }, error)
  }
  if (typeof code === 'string' && UNREACHABLE.has(code)) {
    const said = reason.includes(code) ? reason : `${reason} (${code})`
    return new DiscordConnectError('unavailable', { reason: said }, error)
  }
  const detail = closeCode === undefined ? reason : `${reason} (gateway close code ${closeCode})`
  return new DiscordConnectError('failed', { reason: detail }, error)
}
