import type { TranslatableRef } from '@mycelo/septum'

/**
 * The English of every sentence the operator reads about Matrix in the log and /health.
 * translations/en.yaml holds the same sentences under `operator.*` (a test keeps them equal).
 */
export const OPERATOR_WORDING = {
  token_rejected:
    'The homeserver rejected the access token ({reason}), so the bot cannot sign in. To fix it: sign in ' +
    'as the bot in a client kept for it, copy its access token (Element: Settings → Help & About → ' +
    'Access Token) and save it in the accessToken setting of the matrix plugin.',
  unavailable:
    'The homeserver could not be reached ({reason}). The matrix plugin keeps trying by itself, waiting ' +
    'longer each time; if it lasts, check that this machine reaches {homeserver}.',
  failed: 'Could not connect to Matrix: {reason}',
  sync_failed: 'Matrix sync failed ({reason}); trying again in {seconds} s.',
  encrypted_refused:
    'The bot left room {room} (invited by {inviter}): it is end-to-end encrypted, and the matrix plugin ' +
    'cannot read encrypted rooms yet. Invite it to a room without encryption.',
  invite_refused:
    'The bot declined an invitation to room {room} from {inviter}: acceptInvites is {policy}. To let ' +
    'them invite it, add them to the inviters setting of the matrix plugin, or set acceptInvites to all.',
  rate_limited:
    'The homeserver rate-limited the bot: {count} message(s) wait to be sent in order, next try in {seconds} s',
  queue_full: "matrix: not sent: {limit} messages already wait for the homeserver's rate limit to pass",
  forbidden: 'The homeserver refused to let the bot post in room {room}: {reason}.',
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
export class MatrixConnectError extends Error {
  readonly ref: TranslatableRef

  constructor(
    sentence: 'token_rejected' | 'unavailable' | 'failed',
    params: Readonly<Record<string, string>>,
    cause?: unknown,
  ) {
    super(worded(sentence, params), cause === undefined ? undefined : { cause })
    this.name = 'MatrixConnectError'
    this.ref = { domain: 'matrix', key: `operator.${sentence}`, params }
  }
}
