/**
 * The English of every sentence the operator reads about Signal in the log, the report and
 * /health. translations/en.yaml holds the same sentences under `operator.*` (a test keeps them
 * equal), so a core that renders catalogue keys can give them in the operator's language.
 */
export const OPERATOR_WORDING = {
  account_unknown:
    'signal-cli does not have the account {account} ("{daemon}"). To fix it: register or link that ' +
    'account in signal-cli (signal-cli -a {account} register, or signal-cli link), or correct the ' +
    'account setting of the signal spore.',
  rate_limited:
    'Signal rate-limited the account: {count} message(s) wait to be sent in order, next try in {seconds} s',
  queue_full: "signal: not sent: {limit} messages already wait for Signal's rate limit to pass",
  unregistered: 'not registered on Signal: check the number, or they have left Signal',
  identity: 'their safety number changed: trust it with signal-cli trust {recipient} before sending again',
  rate_limit: 'Signal rate-limited this account: the message waits and is sent again',
  rate_limit_for: 'Signal rate-limited this account for {seconds} s: the message waits and is sent again',
  proof_required:
    'Signal wants a captcha first: solve it and submit it with signal-cli submitRateLimitChallenge',
  network: 'signal-cli could not reach Signal: check the network of the machine signal-cli runs on',
  other_failure: 'see the signal-cli log',
  silent: 'signal-cli stopped answering: no answer in {seconds} s, though the connection is still open',
} as const

export type OperatorSentence = keyof typeof OPERATOR_WORDING

/** One sentence with its `{name}` placeholders filled; the wording uses nothing richer, as ICU would render it. */
export function worded(
  sentence: OperatorSentence,
  params: Readonly<Record<string, string | number>> = {},
): string {
  return OPERATOR_WORDING[sentence].replace(/\{(\w+)\}/g, (whole, name: string) =>
    params[name] === undefined ? whole : String(params[name]),
  )
}
