// The one way the core fetches bytes from a sporangium: https (or loopback http when allowed) at
// every hop, a bounded size counted while streaming, a deadline, and progress for whoever asked.
import type { OutcomeOf } from '@mycelo/septum'
import { type Refusal, refused } from '../mycelium/outcome.ts'
import { checkUrl, type UrlPolicy } from './url-policy.ts'

export const MAX_REDIRECTS = 5

export interface DownloadOptions {
  readonly policy: UrlPolicy
  /** The most bytes the body may be. */
  readonly maxBytes: number
  /** The whole download's deadline, redirects included. */
  readonly deadlineMs: number
  readonly headers?: Readonly<Record<string, string>>
  /** Called as bytes arrive; `total` is the announced length, when there is one. */
  readonly onProgress?: (received: number, total: number | undefined) => void
}

export interface Downloaded {
  readonly bytes: Uint8Array
  /** The final response, for headers a driver reads (rate limits, say). */
  readonly response: Response
}

/** A response the server answered with an error status: a driver may word it better. */
export type DownloadOutcome =
  | OutcomeOf<Downloaded>
  | (Refusal & { readonly status?: number; readonly response?: Response })

/** Fetches `url` into memory within the options' bounds; every fault is a refusal, never a throw. */
export async function download(url: string, options: DownloadOptions): Promise<DownloadOutcome> {
  const controller = new AbortController()
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    controller.abort()
  }, options.deadlineMs)
  // Whether any server answered: a fault before that is an unreachable server, after it a dropped one.
  const answered = { yet: false }
  try {
    return await follow(url, options, { signal: controller.signal, answered })
  } catch (error) {
    if (timedOut) return refused('download_deadline', { url, seconds: Math.ceil(options.deadlineMs / 1000) })
    const detail = error instanceof Error ? error.message : String(error)
    return refused(answered.yet ? 'download_dropped' : 'download_unreachable', { url, detail })
  } finally {
    clearTimeout(timer)
  }
}

interface Hops {
  readonly signal: AbortSignal
  readonly answered: { yet: boolean }
}

async function follow(start: string, options: DownloadOptions, hops: Hops): Promise<DownloadOutcome> {
  let current = start
  const origin = originOf(start)
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const verdict = checkUrl(current, options.policy)
    if (!verdict.ok) return refused('download_url_refused', { url: current })
    // A credential is for the server it was given for, never for wherever that one redirects.
    const headers =
      verdict.url.origin === origin ? { ...options.headers } : withoutAuthorization(options.headers)
    const response = await fetch(verdict.url, { headers, redirect: 'manual', signal: hops.signal })
    hops.answered.yet = true
    const location = response.headers.get('location')
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel()
      current = new URL(location, verdict.url).href
      continue
    }
    if (!response.ok) {
      await response.body?.cancel()
      return {
        ...refused('download_status', { url: current, status: response.status }),
        status: response.status,
        response,
      }
    }
    return readBody(response, current, options)
  }
  return refused('download_redirects', { url: start, max: MAX_REDIRECTS })
}

async function readBody(response: Response, url: string, options: DownloadOptions): Promise<DownloadOutcome> {
  const tooLarge = () => refused('download_too_large', { url, limit: options.maxBytes })
  const announced = Number(response.headers.get('content-length') ?? Number.NaN)
  const total = Number.isFinite(announced) ? announced : undefined
  if (total !== undefined && total > options.maxBytes) {
    await response.body?.cancel()
    return tooLarge()
  }
  const chunks: Uint8Array[] = []
  let received = 0
  const reader = response.body?.getReader()
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      received += value.byteLength
      // Counted, not announced: a header may lie, the bytes cannot.
      if (received > options.maxBytes) {
        await reader.cancel()
        return tooLarge()
      }
      chunks.push(value)
      options.onProgress?.(received, total)
    }
  }
  if (total !== undefined && received < total)
    return refused('download_dropped', { url, detail: `${received} of ${total} bytes` })
  const bytes = new Uint8Array(received)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return { ok: true, value: { bytes, response } }
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin
  } catch {
    return undefined
  }
}

function withoutAuthorization(headers: Readonly<Record<string, string>> | undefined): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers ?? {}).filter(([name]) => name.toLowerCase() !== 'authorization'),
  )
}
