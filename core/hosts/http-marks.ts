/**
 * A Request or a Response (a spore's route) cannot be cloned as it is: before it crosses, its body
 * is read whole (routes' bodies are bounded by their bodyLimit), and the other side builds it again.
 */
import { MESSAGE } from './marks.ts'

/** The marks settle made: they cross as they are (data with the same key crosses as data). */
const SETTLED = new WeakSet<object>()

export function isSettled(value: object): boolean {
  return SETTLED.has(value)
}

export interface HttpMark {
  readonly [MESSAGE]: {
    readonly kind: 'request' | 'response'
    readonly url?: string
    readonly method?: string
    readonly status?: number
    readonly statusText?: string
    readonly headers: [string, string][]
    readonly body: ArrayBuffer | null
  }
}

/** Reads a Request or a Response whole: only a value itself, or a member of the arguments. */
export async function settle(value: unknown): Promise<unknown> {
  if (Array.isArray(value)) return value.some(isHttp) ? Promise.all(value.map(settle)) : value
  if (!isHttp(value)) return value
  const headers = [...value.headers]
  const bytes = await value.arrayBuffer()
  const body = bytes.byteLength === 0 ? null : bytes
  const mark: HttpMark[typeof MESSAGE] =
    value instanceof Request
      ? { kind: 'request', url: value.url, method: value.method, headers, body }
      : { kind: 'response', status: value.status, statusText: value.statusText, headers, body }
  const settled = { [MESSAGE]: mark }
  SETTLED.add(settled)
  return settled
}

export function isHttp(value: unknown): value is Request | Response {
  return value instanceof Request || value instanceof Response
}

export function httpOf(mark: HttpMark): Request | Response {
  const { kind, url, method, status, statusText, headers, body } = mark[MESSAGE]
  if (kind === 'request') return new Request(url ?? '', { method: method ?? 'GET', headers, body })
  return new Response(body, { status: status ?? 200, statusText: statusText ?? '', headers })
}
