import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import type { HttpEnv } from './env.ts'

/**
 * The one error type of the HTTP surface: a status and a catalogue key (domain `core` unless
 * given), answered as `{ error: <message>, key }` with the message in the session's locale.
 */
export class HttpError extends Error {
  override readonly name = 'HttpError'
  readonly status: ContentfulStatusCode
  readonly key: string
  readonly params: Readonly<Record<string, unknown>>
  readonly domain: string
  readonly headers: Readonly<Record<string, string>>

  constructor(
    status: ContentfulStatusCode,
    key: string,
    options: {
      readonly params?: Readonly<Record<string, unknown>>
      readonly domain?: string
      readonly headers?: Readonly<Record<string, string>>
    } = {},
  ) {
    super(key)
    this.status = status
    this.key = key
    this.params = options.params ?? {}
    this.domain = options.domain ?? 'core'
    this.headers = options.headers ?? {}
  }
}

/** The app's onError: an HttpError is worded for the reader; anything else is logged and a 500. */
export function answerError(runtime: CoreRuntime) {
  return (error: Error, c: Context<HttpEnv>) => {
    const locale = c.get('locale') ?? runtime.config.defaultLocale
    const known =
      error instanceof HttpError ? error : new HttpError(500, 'http.error.internal', { params: {} })
    if (!(error instanceof HttpError)) {
      runtime.logger.error('an HTTP request failed', {
        path: c.req.path,
        error: error.stack ?? error.message,
      })
    }
    const message = runtime.translator.render(
      { domain: known.domain, key: known.key, params: known.params },
      locale,
    )
    for (const [name, value] of Object.entries(known.headers)) c.header(name, value)
    return c.json({ error: message, key: known.key }, known.status)
  }
}
