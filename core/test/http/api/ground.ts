// A real bot for the API tests: the real start-up over real spores on disk and a real SQLite file,
// real logging (tapped for /events), and the API served by Bun.serve on loopback behind the
// test-only session port. Every answer body is kept, so a test can scan them all for secrets.
import { Hono } from 'hono'
import { createLogging } from '../../../boot/log.ts'
import { type ApiEnv, ApiEvents, type AuditPort, apiRoutes } from '../../../http/api/index.ts'
import type { ReloadPort } from '../../../http/api/route.ts'
import type { CoreRuntime } from '../../../rhizomorph/runtime.ts'
import { principalIdOf } from '../../../store/index.ts'
import { writeSpore } from '../../boot/process.ts'
import { scratchFolder } from '../../store/scratch.ts'
import { bootInFolder, type Seed, seedStore } from '../../support/boot.ts'
import { CHAT_HYPHA } from '../../support/runtime.ts'
import { TEST_LOCALE, TEST_PRINCIPAL, testAudit, testSession, testSessionPort } from './session.ts'

export interface GroundOptions extends Seed {
  /** Spore folders by name (file path → text); `chat` is always there, its owner `owner`. */
  readonly spores: Record<string, Record<string, string>>
  /** Extra mycelo.yaml lines. */
  readonly config?: string
  /** The audit log the API reads; a stand-in with two entries unless given. */
  readonly audit?: AuditPort
  /** Reloads one spore in place, standing in for live re-germination; none unless given. */
  readonly reload?: ReloadPort
  /** Settings stored flagged secret before the first start: plugin → key → value. */
  readonly secrets?: Record<string, Record<string, unknown>>
}

export interface Answer {
  readonly status: number
  readonly type: string
  readonly json: Record<string, unknown>
}

export interface Asking {
  /** A channel identity on `chat`, or a principal id as is. */
  readonly as?: string
  readonly body?: unknown
  /** Sent as the body verbatim, for bodies that are not JSON. */
  readonly raw?: string
  readonly locale?: string
  readonly headers?: Record<string, string>
}

export interface ApiGround {
  readonly folder: string
  readonly url: string
  readonly runtime: CoreRuntime
  readonly events: ApiEvents
  readonly audit: AuditPort & Partial<Pick<ReturnType<typeof testAudit>, 'asked'>>
  /** Every body the API answered, as text. */
  readonly bodies: string[]
  /** The principal id of an identity on `chat`. */
  principal(externalId: string): string
  /** Fetches `/api/v1<path>` as `as` (the owner unless told) and reads the JSON answer. */
  ask(method: string, path: string, asking?: Asking): Promise<Answer>
  /** Fetches without reading, for streams. */
  open(method: string, path: string, asking?: Asking & { signal?: AbortSignal }): Promise<Response>
  /** Emits a message from `chat`, as the channel would. */
  say(text: string, from: string, group?: string): Promise<void>
  stop(): Promise<void>
}

export async function startApiGround(options: GroundOptions): Promise<ApiGround> {
  const scratch = scratchFolder('api')
  const folder = scratch.path
  for (const [name, files] of Object.entries({ chat: CHAT_HYPHA, ...options.spores }))
    writeSpore(`${folder}/spores`, name, files)
  const logging = createLogging({ level: 'debug', pretty: false, output: { write: () => undefined } })
  const running = await bootInFolder({
    folder,
    config: `spores: [spores]\ndatabase: mycelo.db\nowner: { channel: chat, userId: owner }\n${options.config ?? ''}`,
    logging,
    prepare(store, plugins) {
      seedStore(options)(store, plugins)
      for (const [plugin, values] of Object.entries(options.secrets ?? {})) {
        for (const [key, value] of Object.entries(values))
          plugins.setSetting(plugin, key, value, { secret: true })
      }
    },
  })
  const runtime = running.assembly.runtime
  const events = new ApiEvents(runtime, logging.tap)
  const audit: ApiGround['audit'] =
    options.audit ??
    testAudit([
      {
        id: 2,
        at: Date.parse('2026-11-30T12:00:00.000Z'),
        actorKind: 'principal',
        actor: 'owner',
        via: 'web',
        method: 'plugins.toggle.enable',
        args: ['films'],
        outcome: 'ok',
        detail: null,
      },
      {
        id: 1,
        at: Date.parse('2026-11-30T11:00:00.000Z'),
        actorKind: 'principal',
        actor: 'owner',
        via: 'chat',
        method: 'plugins.configure.setSetting',
        args: ['films', 'year', '••••'],
        outcome: 'refused',
        detail: 'refusal.setting_invalid',
      },
    ])
  const app = new Hono<ApiEnv>()
  app.use('/api/v1/*', testSession(runtime))
  const reload = options.reload ? { reload: options.reload } : {}
  app.route('/api/v1', apiRoutes(runtime, { session: testSessionPort(runtime), audit, events, ...reload }))
  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: app.fetch, idleTimeout: 0 })
  const url = `http://127.0.0.1:${server.port}`
  const bodies: string[] = []
  const principal = (externalId: string) => {
    const id = principalIdOf(running.store, { channel: 'chat', externalId })
    if (id === undefined) throw new Error(`no principal known as ${externalId} on chat`)
    return id
  }
  const open = (method: string, path: string, asking: Asking & { signal?: AbortSignal } = {}) => {
    const as = asking.as ?? 'owner'
    const id = /^[0-9a-f-]{36}$/.test(as) ? as : principal(as)
    const body = asking.raw ?? (asking.body === undefined ? undefined : JSON.stringify(asking.body))
    return fetch(`${url}/api/v1${path}`, {
      method,
      headers: {
        [TEST_PRINCIPAL]: id,
        ...(asking.locale ? { [TEST_LOCALE]: asking.locale } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...asking.headers,
      },
      ...(body !== undefined ? { body } : {}),
      ...(asking.signal ? { signal: asking.signal } : {}),
    })
  }
  const chat = running.germination.byName.get('chat')?.instance as {
    say(message: unknown): Promise<void>
  }
  let sequence = 0
  return {
    folder,
    url,
    runtime,
    events,
    audit,
    bodies,
    principal,
    open,
    async ask(method, path, asking) {
      const response = await open(method, path, asking)
      const text = await response.text()
      bodies.push(text)
      return {
        status: response.status,
        type: response.headers.get('content-type') ?? '',
        json: (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>,
      }
    },
    say(text, from, group) {
      sequence += 1
      return chat.say({
        channel: 'chat',
        conversationId: group ?? `dm-${from}`,
        messageId: `api-${sequence}`,
        ...(group ? { group: { id: group, name: `Group ${group}` } } : {}),
        sender: { channel: 'chat', externalId: from },
        text,
        attachments: [],
        raw: null,
        receivedAt: new Date(),
      })
    },
    async stop() {
      events.close()
      server.stop(true)
      await running.stop()
      scratch.remove()
    },
  }
}
