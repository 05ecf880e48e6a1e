import type { Logger } from '@mycelo/septum'
// The SDK's modules without its index, whose guard throws when a second copy loads in one process
// (a bundled strain beside the checkout's own, as tests and a reinstall do); each copy keeps to its own classes.
import { ConnectionError, HTTPError, MatrixClient, MatrixError } from 'matrix-js-sdk/lib/matrix.js'
import type { MatrixConfig } from './config.ts'

/**
 * matrix-js-sdk's client for the client-server API, used for its requests, its error model and its
 * typed calls (whoami, join, leave, members, upload). No scheduler, store or sync of its own: the
 * hypha runs /sync itself, so the since token lives in the spore's storage and a send's rate limit
 * reaches the shared outbox rather than an internal retry queue.
 */
export function createMatrixClient(config: MatrixConfig, logger: Logger, userId?: string): MatrixClient {
  return new MatrixClient({
    baseUrl: config.homeserverUrl.replace(/\/+$/, ''),
    accessToken: config.accessToken,
    ...(userId === undefined ? {} : { userId }),
    localTimeoutMs: 90_000,
    // The SDK would log every request to the console; its lines go to the spore's log, as debug.
    logger: sdkLogger(logger),
  })
}

type SdkLogger = NonNullable<ConstructorParameters<typeof MatrixClient>[0]['logger']>

function sdkLogger(logger: Logger): SdkLogger {
  const line = (...parts: unknown[]) => logger.debug(`matrix-js-sdk: ${parts.map(String).join(' ')}`)
  const sdk: SdkLogger = {
    trace: line,
    debug: line,
    info: line,
    warn: line,
    error: line,
    getChild: () => sdk,
  }
  return sdk
}

/** How long a refusal asks to wait (M_LIMIT_EXCEEDED or a 429), or undefined for any other failure. */
export function retryAfterMs(error: unknown): number | undefined {
  if (!(error instanceof HTTPError) || !error.isRateLimitError()) return undefined
  return error.getRetryAfterMs() ?? 1_000
}

/** The homeserver does not know the token: revoked, logged out, or mistyped. */
export function isTokenRejected(error: unknown): boolean {
  return (
    error instanceof MatrixError &&
    (error.errcode === 'M_UNKNOWN_TOKEN' || error.errcode === 'M_MISSING_TOKEN')
  )
}

/** The homeserver, or the way to it, is down: a network failure or a 5xx. Trying later can work. */
export function isUnreachable(error: unknown): boolean {
  if (error instanceof ConnectionError) return true
  return error instanceof HTTPError && (error.httpStatus ?? 0) >= 500
}

export function isForbidden(error: unknown): boolean {
  return error instanceof MatrixError && error.errcode === 'M_FORBIDDEN'
}

/** What went wrong, in one line: the homeserver's errcode and words when it gave them. */
export function describeFailure(error: unknown): string {
  if (error instanceof MatrixError)
    return `${error.errcode ?? error.httpStatus}: ${error.data.error ?? error.message}`
  if (error instanceof ConnectionError) return `network error: ${error.message}`
  return error instanceof Error ? error.message : String(error)
}
