import type { TranslatableRef } from '@mycelo/septum'

/**
 * The English of every sentence the operator reads about Telegram in the log and /health.
 * translations/en.yaml holds the same sentences under `operator.*` (a test keeps them equal), so a
 * core that renders the catalogue key gives them in the operator's language.
 */
export const OPERATOR_WORDING = {
  token_rejected:
    'Telegram rejected the bot token ({reason}), so the bot cannot log in. To fix it: in a chat with ' +
    '@BotFather send /mybots → your bot → API Token (or /revoke for a new one), and save it in the ' +
    'token setting of the telegram plugin.',
  unavailable:
    'Telegram could not be reached ({reason}). The telegram plugin keeps trying by itself, waiting ' +
    'longer each time; if it lasts, check that this machine reaches {api}.',
  failed: 'Could not connect to Telegram: {reason}',
  conflict:
    'Another program is reading this bot’s updates (Telegram answered: {reason}). A bot has one reader: ' +
    'stop the other copy, or give this one its own bot; the telegram plugin keeps trying meanwhile.',
  polling_failed: 'Telegram’s updates could not be fetched ({reason}); trying again in {seconds} s.',
  webhook_refused:
    'Telegram refused the webhook {url} ({reason}). To fix it: the address must be public, https, on ' +
    'port 443, 80, 88 or 8443, with a valid certificate; or empty the webhookUrl setting to poll instead.',
  webhook_failing:
    'Telegram says its last delivery to {url} failed: {reason}. Check that the address reaches this ' +
    'bot’s web server from the internet ({pending} update(s) wait at Telegram).',
  blocked:
    'Telegram will not deliver to chat {chat}: {reason}. Nothing more is sent there until someone ' +
    'writes from it again.',
  rate_limited:
    'Telegram rate-limited the bot: {count} message(s) wait to be sent in order, next try in {seconds} s',
  queue_full: "telegram: not sent: {limit} messages already wait for Telegram's rate limit to pass",
  commands_failed:
    'The command menu could not be set in Telegram ({reason}); commands still work when typed.',
} as const

export type OperatorSentence = keyof typeof OPERATOR_WORDING

/** One sentence with its `{name}` placeholders filled, as ICU renders this plain wording. */
export function worded(
  sentence: OperatorSentence,
  params: Readonly<Record<string, string | number>> = {},
): string {
  return OPERATOR_WORDING[sentence].replace(/\{(\w+)\}/g, (whole, name: string) =>
    params[name] === undefined ? whole : String(params[name]),
  )
}

/** connect() rejected: the message is log-ready English, `ref` the same sentence as a catalogue key. */
export class TelegramConnectError extends Error {
  readonly ref: TranslatableRef
  /** Telegram was unreachable rather than refusing: trying again later can work. */
  readonly transient: boolean

  constructor(
    sentence: 'token_rejected' | 'unavailable' | 'failed',
    params: Readonly<Record<string, string>>,
    cause?: unknown,
  ) {
    super(worded(sentence, params), cause === undefined ? undefined : { cause })
    this.name = 'TelegramConnectError'
    this.ref = { domain: 'telegram', key: `operator.${sentence}`, params }
    this.transient = sentence === 'unavailable'
  }
}
