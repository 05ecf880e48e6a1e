import type {
  ApiError,
  ApiResponse,
  BotCommand,
  ChatMember,
  File,
  Message,
  Opts,
  ResponseParameters,
  Update,
  WebhookInfo,
} from '@grammyjs/types'
import { Recorder } from './recorder.ts'
import type { World } from './world.ts'

/** One Bot API call as the fake received it: the method, its parameters, and what it answered. */
export interface RecordedCall {
  readonly method: string
  readonly params: Record<string, unknown>
  /** Uploaded files by field name, with their bytes. */
  readonly files: Readonly<Record<string, { readonly name: string; readonly bytes: Uint8Array }>>
  readonly status: number
  /** The whole answer as it went on the wire: ok with its result, or the error. */
  readonly body: ApiResponse<unknown>
}

/** An answer a test makes the next call of a method give instead of the real one. */
export interface Injected {
  readonly error_code: number
  readonly description: string
  readonly parameters?: ResponseParameters
}

type Params = Record<string, unknown>
interface WebhookState {
  readonly url: string
  readonly secret?: string
  lastError?: { readonly date: number; readonly message: string }
}
type Answer = { readonly status: number; readonly body: ApiResponse<unknown> }

const ok = <T>(result: T): Answer => ({ status: 200, body: { ok: true, result } })
const failed = (error: Injected): Answer => {
  const body: ApiError = { ok: false, error_code: error.error_code, description: error.description }
  return {
    status: error.error_code,
    body: error.parameters ? { ...body, parameters: error.parameters } : body,
  }
}
const badRequest = (description: string) =>
  failed({ error_code: 400, description: `Bad Request: ${description}` })

/**
 * The Bot API as Telegram serves it over HTTP, on 127.0.0.1: `/bot<token>/<method>` (JSON,
 * form-encoded or multipart, as grammY sends it), `/file/bot<token>/<path>` for downloads, long
 * polling with offsets that confirm, webhooks delivered with the secret token header, and the
 * errors Telegram gives: 401 for a wrong token, 403 for a user who blocked the bot, 409 for a
 * second reader, 429 with retry_after.
 */
export class FakeBotApi {
  readonly calls = new Recorder<RecordedCall>()
  /** Every webhook delivery: the update and the status the bot's server answered. */
  readonly deliveries = new Recorder<{
    readonly update: Update
    readonly status: number
    readonly secret: string | null
  }>()
  readonly sent = new Recorder<Message>()
  readonly commands = new Map<string, BotCommand[]>()
  readonly #queue: Update[] = []
  readonly #injected = new Map<string, Injected[]>()
  #poller: { readonly resolve: (answer: Answer) => void } | undefined
  #wake: (() => void) | undefined
  #webhook: WebhookState | undefined
  #delivering = Promise.resolve()

  constructor(
    readonly world: World,
    readonly token: string,
  ) {}

  /** Makes the next `count` calls of `method` fail with this answer. */
  inject(method: string, error: Injected, count = 1): void {
    const list = this.#injected.get(method) ?? []
    for (let index = 0; index < count; index += 1) list.push(error)
    this.#injected.set(method, list)
  }

  /** Queues an update: the waiting poll gets it at once, or the webhook is posted it. */
  push(update: Update): void {
    if (this.#webhook !== undefined) {
      const webhook = this.#webhook
      this.#delivering = this.#delivering.then(() => this.#deliver(webhook, update))
      return
    }
    this.#queue.push(update)
    this.#wake?.()
  }

  /** What getUpdates would hand out now, confirmed or not. */
  get pending(): readonly Update[] {
    return this.#queue
  }

  async handle(request: Request): Promise<Response> {
    const url = new URL(request.url)
    const file = url.pathname.match(/^\/file\/bot([^/]+)\/(.+)$/)
    if (file !== null) return this.#download(file[1] ?? '', decodeURIComponent(file[2] ?? ''))
    const call = url.pathname.match(/^\/bot([^/]+)\/(\w+)$/)
    if (call === null)
      return Response.json(failed({ error_code: 404, description: 'Not Found' }).body, { status: 404 })
    const [, token = '', method = ''] = call
    const { params, files } = await readParams(request)
    const injected = token === this.token ? this.#injected.get(method)?.shift() : undefined
    const answer =
      token !== this.token
        ? failed({ error_code: 401, description: 'Unauthorized' })
        : injected !== undefined
          ? failed(injected)
          : await this.#answer(method, params, files, request.signal)
    this.calls.add({ method, params, files, status: answer.status, body: answer.body })
    return Response.json(answer.body, { status: answer.status })
  }

  stop(): void {
    this.#poller?.resolve(ok([]))
    this.#wake?.()
  }

  async #answer(
    method: string,
    params: Params,
    files: RecordedCall['files'],
    signal: AbortSignal,
  ): Promise<Answer> {
    const world = this.world
    switch (method) {
      case 'getMe':
        return ok(world.bot)
      case 'getUpdates':
        return this.#getUpdates(params as Opts<File>['getUpdates'], signal)
      case 'setWebhook': {
        const { url, secret_token } = params as Opts<File>['setWebhook']
        if (!/^https?:\/\//.test(url))
          return badRequest('bad webhook: An HTTPS URL must be provided for webhook')
        this.#webhook = { url, ...(secret_token === undefined ? {} : { secret: secret_token }) }
        const waiting = this.#queue.splice(0)
        for (const update of waiting) this.push(update)
        return ok(true)
      }
      case 'deleteWebhook':
        this.#webhook = undefined
        return ok(true)
      case 'getWebhookInfo':
        return ok(this.#webhookInfo())
      case 'sendMessage': {
        const { chat_id, text } = params as Opts<File>['sendMessage']
        if (typeof text !== 'string' || text.length === 0) return badRequest('message text is empty')
        if (text.length > 4096) return badRequest('message is too long')
        return this.#post(chat_id, params, { text })
      }
      case 'sendPhoto':
      case 'sendDocument': {
        const field = method === 'sendPhoto' ? 'photo' : 'document'
        const upload = files[field]
        if (upload === undefined) return badRequest(`there is no ${field} in the request`)
        const stored = world.storeFile(upload.bytes, upload.name.split('.').at(-1) ?? 'bin')
        const media: Partial<Message> =
          method === 'sendPhoto'
            ? { photo: [{ ...stored, width: 64, height: 64 }] }
            : { document: { ...stored, file_name: upload.name } }
        return this.#post((params as Opts<File>['sendDocument']).chat_id, params, media)
      }
      case 'setMessageReaction':
        return ok(true)
      case 'getFile': {
        const { file_id } = params as Opts<File>['getFile']
        const stored = world.files.get(file_id)
        if (stored === undefined) return badRequest('invalid file_id')
        const answer: File = {
          file_id,
          file_unique_id: `unique-${file_id}`,
          file_size: stored.bytes.byteLength,
          file_path: stored.path,
        }
        return ok(answer)
      }
      case 'getChatAdministrators': {
        const { chat_id } = params as Opts<File>['getChatAdministrators']
        if (Number(chat_id) !== world.group.id) return badRequest('chat not found')
        const admins: ChatMember[] = [...world.statuses.keys()]
          .map((userId) => world.chatMember(world.group.id, userId))
          .filter((member) => member.status === 'creator' || member.status === 'administrator')
        return ok(admins)
      }
      case 'getChatMember': {
        const { chat_id, user_id } = params as Opts<File>['getChatMember']
        if (Number(chat_id) !== world.group.id) return badRequest('chat not found')
        return ok(world.chatMember(world.group.id, Number(user_id)))
      }
      case 'setMyCommands': {
        const { commands, scope, language_code } = params as Opts<File>['setMyCommands']
        const where = scope?.type === 'chat' ? `chat:${scope.chat_id}` : (scope?.type ?? 'default')
        this.commands.set(`${where}:${language_code ?? ''}`, [...commands])
        return ok(true)
      }
      default:
        return failed({ error_code: 404, description: 'Not Found: method not found' })
    }
  }

  /** A message the bot sends: refused for a user who blocked it, else kept and answered whole. */
  #post(chatId: number | string, params: Params, content: Partial<Message>): Answer {
    const world = this.world
    const id = Number(chatId)
    if (world.blocked.has(id))
      return failed({ error_code: 403, description: 'Forbidden: bot was blocked by the user' })
    const chat =
      id === world.group.id
        ? world.group
        : [world.alice, world.bob, world.carol].find((one) => one.chat.id === id)?.chat
    if (chat === undefined) return badRequest('chat not found')
    const thread = params.message_thread_id
    const reply = params.reply_parameters as Opts<File>['sendMessage']['reply_parameters']
    const quoted = reply?.message_id === undefined ? undefined : world.quoted(id, reply.message_id)
    if (reply !== undefined && quoted === undefined) return badRequest('message to be replied not found')
    const message = world.keep({
      ...content,
      message_id: world.nextMessageId(),
      date: Math.floor(Date.now() / 1000),
      chat,
      from: world.botUser,
      ...(typeof thread === 'number' ? { message_thread_id: thread, is_topic_message: true } : {}),
      ...(quoted === undefined ? {} : { reply_to_message: quoted }),
    } satisfies Message)
    this.sent.add(message)
    return ok(message)
  }

  /** Long polling: confirms what came before `offset`, answers at once if anything waits, else waits. */
  async #getUpdates(params: Opts<File>['getUpdates'], signal: AbortSignal): Promise<Answer> {
    if (this.#webhook !== undefined) {
      return failed({
        error_code: 409,
        description:
          "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
      })
    }
    // A second reader ends the first one's poll, as Telegram does.
    this.#poller?.resolve(
      failed({
        error_code: 409,
        description:
          'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
      }),
    )
    const offset = params.offset ?? 0
    while (this.#queue.length > 0 && (this.#queue[0]?.update_id ?? 0) < offset) this.#queue.shift()
    if (this.#queue.length > 0 || (params.timeout ?? 0) === 0)
      return ok(this.#queue.slice(0, params.limit ?? 100))
    return new Promise<Answer>((resolve) => {
      const finish = (answer: Answer) => {
        clearTimeout(timer)
        this.#wake = undefined
        if (this.#poller === poller) this.#poller = undefined
        resolve(answer)
      }
      const poller = { resolve: finish }
      this.#poller = poller
      this.#wake = () => finish(ok(this.#queue.slice(0, params.limit ?? 100)))
      const timer = setTimeout(() => finish(ok([])), (params.timeout ?? 0) * 1000)
      signal.addEventListener('abort', () => finish(ok([])), { once: true })
    })
  }

  async #deliver(webhook: WebhookState, update: Update): Promise<void> {
    let status = 0
    try {
      const response = await fetch(webhook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(webhook.secret === undefined ? {} : { 'x-telegram-bot-api-secret-token': webhook.secret }),
        },
        body: JSON.stringify(update),
      })
      status = response.status
      if (!response.ok)
        webhook.lastError = {
          date: Math.floor(Date.now() / 1000),
          message: `Wrong response from the webhook: ${response.status} ${response.statusText}`,
        }
    } catch (error) {
      webhook.lastError = {
        date: Math.floor(Date.now() / 1000),
        message: `Connection refused (${String(error)})`,
      }
    }
    this.deliveries.add({ update, status, secret: webhook.secret ?? null })
  }

  get webhook(): { url: string; secret?: string } | undefined {
    return this.#webhook
  }

  /** Posts a raw body to the webhook as someone who is not Telegram might, with the header they choose. */
  async forge(body: unknown, secret: string | undefined): Promise<number> {
    const url = this.#webhook?.url
    if (url === undefined) throw new Error('no webhook is set')
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(secret === undefined ? {} : { 'x-telegram-bot-api-secret-token': secret }),
      },
      body: JSON.stringify(body),
    })
    return response.status
  }

  #webhookInfo(): WebhookInfo {
    const webhook = this.#webhook
    return {
      url: webhook?.url ?? '',
      has_custom_certificate: false,
      pending_update_count: this.#queue.length,
      ...(webhook?.lastError === undefined
        ? {}
        : { last_error_date: webhook.lastError.date, last_error_message: webhook.lastError.message }),
    }
  }

  #download(token: string, path: string): Response {
    if (token !== this.token) return new Response('Unauthorized', { status: 401 })
    const stored = [...this.world.files.values()].find((file) => file.path === path)
    if (stored === undefined) return new Response('Not Found', { status: 404 })
    return new Response(stored.bytes)
  }
}

/** The parameters of a call in any of the three encodings the Bot API accepts, files apart. */
async function readParams(request: Request): Promise<{ params: Params; files: RecordedCall['files'] }> {
  const type = request.headers.get('content-type') ?? ''
  if (type.includes('application/json')) return { params: (await request.json()) as Params, files: {} }
  if (!type.includes('multipart/form-data') && !type.includes('application/x-www-form-urlencoded')) {
    return { params: {}, files: {} }
  }
  const form = await request.formData()
  const params: Params = {}
  const files: Record<string, { name: string; bytes: Uint8Array }> = {}
  for (const [key, value] of form.entries()) {
    if (typeof value !== 'string') {
      files[key] = { name: value.name, bytes: new Uint8Array(await value.arrayBuffer()) }
      continue
    }
    // grammY sends objects and numbers as JSON text, as the Bot API reads them.
    params[key] = /^[[{\d-]|^true$|^false$/.test(value) ? safeJson(value) : value
  }
  // A file sent as `attach://name` sits in its own field; hand it over under the parameter's name.
  for (const [key, value] of Object.entries(params)) {
    if (typeof value === 'string' && value.startsWith('attach://')) {
      const upload = files[value.slice('attach://'.length)]
      if (upload !== undefined) files[key] = upload
    }
  }
  return { params, files }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
