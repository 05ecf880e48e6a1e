// The page's one way to the operator API: JSON in and out, the session's CSRF token on every
// write, and an error that carries the bot's own translated reason.

/** A refusal or fault as the API words it: `error` is already in the reader's language. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly key: string,
    message: string,
    readonly field?: string,
  ) {
    super(message)
  }
}

let csrfToken = ''

/** Set from the session's answer; every state-changing request carries it. */
export function keepCsrf(token: string): void {
  csrfToken = token
}

export interface Asking {
  readonly method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  readonly body?: unknown
  readonly accept?: string
}

/** The raw answer, for streams; throws ApiError for a refusal. */
export async function request(path: string, asking: Asking = {}): Promise<Response> {
  const method = asking.method ?? (asking.body === undefined ? 'GET' : 'POST')
  const headers: Record<string, string> = { accept: asking.accept ?? 'application/json' }
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken
  if (asking.body !== undefined) headers['content-type'] = 'application/json'
  let answer: Response
  try {
    answer = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      ...(asking.body === undefined ? {} : { body: JSON.stringify(asking.body) }),
    })
  } catch {
    throw new ApiError(0, 'network', '')
  }
  if (answer.status === 401 && !path.startsWith('/api/v1/session/login')) {
    // The session ended (idle, revoked): the sign-in page says how to get a new link.
    location.assign('/login')
  }
  if (!answer.ok) {
    const body = (await answer.json().catch(() => ({}))) as { error?: string; key?: string; field?: string }
    throw new ApiError(answer.status, body.key ?? `status.${answer.status}`, body.error ?? '', body.field)
  }
  return answer
}

/** A JSON answer from /api/v1. */
export async function api<T>(path: string, asking: Asking = {}): Promise<T> {
  const answer = await request(`/api/v1${path}`, asking)
  return (await answer.json()) as T
}

/** Path parameters are encoded, so a name with a slash or a space reaches the route intact. */
export function part(value: string): string {
  return encodeURIComponent(value)
}
