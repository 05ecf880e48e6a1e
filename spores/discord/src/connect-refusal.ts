import type { TranslatableRef } from '@mycelo/septum'
import { ApplicationFlags, GatewayCloseCodes, REST, Routes } from 'discord.js'

/**
 * The English text of every connect refusal. translations/en.yaml holds the same sentences under
 * `connect.*` (a test keeps them equal), so a core that renders the error's ref can translate it.
 */
export const CONNECT_WORDING = {
  token_rejected:
    'Discord rejected the bot token, so the bot cannot log in. To fix it: Discord Developer Portal → ' +
    'Applications → your bot → Bot → Reset Token, then save the new token in the token setting of the ' +
    'discord plugin and restart.',
  intents_disallowed:
    'Discord refused the gateway connection because a privileged intent the bot needs is not enabled: ' +
    '{intents}. To fix it: Discord Developer Portal → Applications → your bot → Bot → Privileged ' +
    'Gateway Intents, switch on {intents}, save, then restart.',
  failed: 'Could not connect to Discord: {reason}',
} as const

export type ConnectRefusal = keyof typeof CONNECT_WORDING

/** The portal's own labels for the two privileged intents the hypha asks for. */
export const INTENT_LABELS = {
  messageContent: 'Message Content Intent',
  guildMembers: 'Server Members Intent',
} as const

/** connect() rejected: the message is log-ready English, `ref` the same sentence as a catalogue key. */
export class DiscordConnectError extends Error {
  readonly refusal: ConnectRefusal
  readonly ref: TranslatableRef

  constructor(refusal: ConnectRefusal, params: Readonly<Record<string, string>>, cause?: unknown) {
    super(renderWording(CONNECT_WORDING[refusal], params), cause === undefined ? undefined : { cause })
    this.name = 'DiscordConnectError'
    this.refusal = refusal
    this.ref = { domain: 'discord', key: `connect.${refusal}`, params }
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
  readonly token: string
  readonly api: string
}

/** Turns a failed login into the refusal an operator can act on. */
export async function diagnoseConnectFailure(options: DiagnoseOptions): Promise<DiscordConnectError> {
  const { error, closeCode } = options
  const code = (error as { code?: unknown } | null)?.code
  if (code === 'TokenInvalid' || closeCode === GatewayCloseCodes.AuthenticationFailed) {
    return new DiscordConnectError('token_rejected', {}, error)
  }
  if (closeCode === GatewayCloseCodes.DisallowedIntents) {
    const intents = await missingIntents(options)
    return new DiscordConnectError('intents_disallowed', { intents: intents.join(' and ') }, error)
  }
  const reason = error instanceof Error ? error.message : String(error)
  const detail = closeCode === undefined ? reason : `${reason} (gateway close code ${closeCode})`
  return new DiscordConnectError('failed', { reason: detail }, error)
}

/**
 * Close code 4014 does not say which intent was refused; the application's flags do. When they
 * cannot be read, both intents the hypha asks for are named.
 */
async function missingIntents(options: DiagnoseOptions): Promise<string[]> {
  const both = [INTENT_LABELS.messageContent, INTENT_LABELS.guildMembers]
  const rest = new REST({ api: options.api, timeout: 5_000 }).setToken(options.token)
  try {
    const application = (await rest.get(Routes.currentApplication())) as { flags?: number }
    const flags = application.flags ?? 0
    const missing: string[] = []
    const content = ApplicationFlags.GatewayMessageContent | ApplicationFlags.GatewayMessageContentLimited
    const members = ApplicationFlags.GatewayGuildMembers | ApplicationFlags.GatewayGuildMembersLimited
    if ((flags & content) === 0) missing.push(INTENT_LABELS.messageContent)
    if ((flags & members) === 0) missing.push(INTENT_LABELS.guildMembers)
    return missing.length === 0 ? both : missing
  } catch {
    return both
  } finally {
    rest.clearHashSweeper()
    rest.clearHandlerSweeper()
  }
}
