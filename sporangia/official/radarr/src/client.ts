import type { TranslatableRef } from '@mycelo/septum'
import type { z } from 'zod'

/** Largest Radarr answer read: a lookup or a calendar is a few hundred kilobytes at most. */
const MAX_BODY_BYTES = 8 * 1024 * 1024

/**
 * A fault talking to Radarr (unreachable, slow, refused key, an answer that is not what v3 sends).
 * `ref` words it in the radarr domain, which every spore requiring this rhiza may render.
 */
export class RadarrFault extends Error {
  override readonly name = 'RadarrFault'
  constructor(
    readonly ref: TranslatableRef,
    detail: string,
  ) {
    super(detail)
  }
}

const fault = (key: string, detail: string, params: Record<string, unknown> = {}) =>
  new RadarrFault({ domain: 'radarr', key, params }, detail)

export interface ClientOptions {
  readonly url: string
  readonly apiKey: string
  readonly timeoutMs: number
  /** Aborted when the rhiza stops, so no call outlives it. */
  readonly stopped: AbortSignal
}

export interface Call {
  readonly method?: 'GET' | 'POST'
  readonly query?: Readonly<Record<string, string>>
  readonly body?: unknown
}

/** An answer Radarr gave with a status other than 2xx, body parsed when it was JSON. */
export interface Refused {
  readonly status: number
  readonly body: unknown
}

export class RadarrClient {
  readonly #options: ClientOptions
  constructor(options: ClientOptions) {
    this.#options = options
  }

  /** The parsed 2xx answer, or the refusal for a 4xx the caller may read; faults throw. */
  async call<T>(
    path: string,
    schema: z.ZodType<T>,
    call: Call = {},
  ): Promise<{ ok: true; value: T } | Refused> {
    const { status, body } = await this.#send(path, call)
    if (status >= 200 && status < 300) {
      const parsed = schema.safeParse(body)
      if (!parsed.success) throw fault('fault.malformed', `${path}: ${parsed.error.message}`, { path })
      return { ok: true, value: parsed.data }
    }
    if (status === 401 || status === 403) throw fault('fault.unauthorized', `${path}: HTTP ${status}`)
    if (status >= 400 && status < 500) return { status, body }
    throw fault('fault.status', `${path}: HTTP ${status}`, { status })
  }

  async #send(path: string, call: Call): Promise<Refused> {
    const { url, apiKey, timeoutMs, stopped } = this.#options
    const target = new URL(`${url.replace(/\/+$/, '')}/api/v3${path}`)
    for (const [key, value] of Object.entries(call.query ?? {})) target.searchParams.set(key, value)
    const headers: Record<string, string> = { 'X-Api-Key': apiKey, Accept: 'application/json' }
    if (call.body !== undefined) headers['Content-Type'] = 'application/json'
    const signal = AbortSignal.any([AbortSignal.timeout(timeoutMs), stopped])
    let response: Response
    let text: string
    try {
      response = await fetch(target, {
        method: call.method ?? 'GET',
        headers,
        signal,
        redirect: 'error',
        ...(call.body !== undefined && { body: JSON.stringify(call.body) }),
      })
      const announced = Number(response.headers.get('content-length') ?? 0)
      if (announced > MAX_BODY_BYTES) throw fault('fault.tooLarge', `${path}: ${announced} bytes`, { path })
      text = await response.text()
    } catch (error) {
      if (error instanceof RadarrFault) throw error
      if (signal.aborted && !stopped.aborted)
        throw fault('fault.timeout', `${path}: no answer in ${timeoutMs} ms`, { seconds: timeoutMs / 1000 })
      throw fault('fault.unreachable', `${path}: ${(error as Error).message}`, { url })
    }
    if (text.length > MAX_BODY_BYTES) throw fault('fault.tooLarge', `${path}: ${text.length} bytes`, { path })
    return { status: response.status, body: parseJson(text) }
  }
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
