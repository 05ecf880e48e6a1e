// A whole bot with the real admin spore and its HTTP server on a loopback port of its own, and a
// small client that speaks to it as a browser would: cookie, Origin, CSRF header.
import { startHttp } from '../../http/server.ts'
import { realSpore } from '../support/real-spores.ts'
import { startTestCore, type TestCore, type TestCoreOptions } from '../support/runtime.ts'

export interface WebBot {
  readonly core: TestCore
  /** The server's address, e.g. http://127.0.0.1:41234 */
  readonly url: string
  /** The owner's one-time link, as printed at start. */
  readonly loginLink: string
  /** The clock the server reads; move it to expire tickets and sessions. */
  readonly clock: { now: number }
  readonly client: WebClient
  stop(): Promise<void>
}

/** Starts a bot whose page listens on port 0, with a clock the test moves. */
export async function startWebBot(
  options: Partial<TestCoreOptions> & { http?: string } = {},
): Promise<WebBot> {
  const core = await startTestCore({
    ...options,
    spores: { admin: realSpore('admin'), ...options.spores },
    // The bot's own server listens on a free port; the test starts a second over the same runtime,
    // with a clock it moves.
    config: `http:\n  port: 0\n${options.http ?? ''}\n${options.config ?? ''}`,
  })
  const clock = { now: Date.now() }
  const server = startHttp(core.assembly.runtime, { now: () => clock.now })
  return {
    core,
    url: server.url,
    loginLink: server.loginLink!,
    clock,
    client: new WebClient(server.url),
    async stop() {
      await server.stop()
      await core.stop()
    },
  }
}

export interface Answer {
  readonly status: number
  readonly body: Record<string, unknown> & { error?: string; key?: string }
  readonly headers: Headers
}

export interface Signed {
  readonly cookie: string
  readonly csrf: string
  readonly setCookie: string
  readonly principalId: string
}

/** Speaks to the server as a browser on its own origin would, unless told otherwise. */
export class WebClient {
  constructor(readonly url: string) {}

  async send(
    path: string,
    options: {
      method?: string
      body?: unknown
      session?: Signed
      origin?: string | null
      csrf?: string | null
      headers?: Record<string, string>
    } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = { ...options.headers }
    const origin = options.origin === undefined ? this.url : options.origin
    if (origin !== null) headers.origin = origin
    if (options.session) headers.cookie = options.session.cookie
    const csrf = options.csrf === undefined ? options.session?.csrf : options.csrf
    if (csrf !== undefined && csrf !== null) headers['x-csrf-token'] = csrf
    if (options.body !== undefined) headers['content-type'] = 'application/json'
    const response = await fetch(`${this.url}${path}`, {
      method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
      headers,
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    })
    const text = await response.text()
    let body: Answer['body'] = {}
    try {
      body = JSON.parse(text) as Answer['body']
    } catch {
      body = { text }
    }
    return { status: response.status, body, headers: response.headers }
  }

  /** Signs in with a link's token or a chat code; throws unless it worked. */
  async signIn(ticket: string): Promise<Signed> {
    const answer = await this.send('/api/v1/session/login', { body: { ticket } })
    if (answer.status !== 200)
      throw new Error(`sign-in refused: ${answer.status} ${JSON.stringify(answer.body)}`)
    const setCookie = answer.headers.get('set-cookie') ?? ''
    return {
      cookie: setCookie.split(';')[0]!,
      csrf: String(answer.body.csrfToken),
      setCookie,
      principalId: String(answer.body.principalId),
    }
  }
}

/** The one-time code in the bot's answer to /web. */
export const codeIn = (reply: string | undefined) => /: ([A-Z0-9]{10}) /.exec(reply ?? '')?.[1]

/** The token in a printed link: everything after `#`. */
export function tokenOf(link: string): string {
  return link.slice(link.indexOf('#') + 1)
}
