// A sporangium index served from a folder over loopback HTTP, as any static web server would, with
// the faults a real network has on demand: an error status, a connection dropped mid-body, a
// redirect loop, a server that stalls, a body sent without its length.
import { join, normalize } from 'node:path'

export type ServedFault =
  | { readonly kind: 'status'; readonly status: number }
  /** Announces the whole length, sends `after` bytes, then breaks the connection. */
  | { readonly kind: 'drop'; readonly after: number }
  /** Redirects to itself, forever. */
  | { readonly kind: 'redirect-loop' }
  /** Redirects to another URL (say, one that is not https). */
  | { readonly kind: 'redirect'; readonly to: string }
  /** Sends a first chunk, then nothing, never ending. */
  | { readonly kind: 'stall' }
  /** Streams the file with no Content-Length, so only counting can tell its size. */
  | { readonly kind: 'unannounced' }

export interface ServedRequest {
  readonly path: string
  readonly authorization: string | null
}

export interface IndexServer {
  /** The folder's URL, without a trailing slash: what a source's url is set to. */
  readonly url: string
  readonly requests: ServedRequest[]
  /** Makes every later request for `path` (e.g. `/index.json`) fail this way; undefined heals it. */
  fault(path: string, fault: ServedFault | undefined): void
  stop(): Promise<void>
}

/** Serves `folder` statically on 127.0.0.1, on a port of the system's choosing. */
export function serveIndex(folder: string): IndexServer {
  const faults = new Map<string, ServedFault>()
  const requests: ServedRequest[] = []
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const path = decodeURIComponent(new URL(request.url).pathname)
      requests.push({ path, authorization: request.headers.get('authorization') })
      const fault = faults.get(path)
      if (fault?.kind === 'status') return new Response('failing on purpose', { status: fault.status })
      if (fault?.kind === 'redirect-loop') return Response.redirect(request.url, 302)
      if (fault?.kind === 'redirect') return Response.redirect(fault.to, 302)
      const relative = normalize(path).replace(/^(\.\.[/\\])+/, '')
      const file = Bun.file(join(folder, relative))
      if (!(await file.exists())) return new Response('not found', { status: 404 })
      const bytes = new Uint8Array(await file.arrayBuffer())
      if (fault?.kind === 'drop') return dropping(bytes, fault.after)
      if (fault?.kind === 'stall') return stalling(bytes)
      if (fault?.kind === 'unannounced') return new Response(streamOf(bytes))
      return new Response(bytes)
    },
  })
  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    fault(path, fault) {
      if (fault === undefined) faults.delete(path)
      else faults.set(path, fault)
    },
    async stop() {
      await server.stop(true)
    },
  }
}

function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    pull(controller) {
      controller.enqueue(bytes)
      controller.close()
    },
  })
}

function dropping(bytes: Uint8Array, after: number): Response {
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      controller.enqueue(bytes.slice(0, after))
      await Bun.sleep(10)
      controller.error(new Error('dropped on purpose'))
    },
  })
  return new Response(stream, { headers: { 'content-length': String(bytes.byteLength) } })
}

function stalling(bytes: Uint8Array): Response {
  let sent = false
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!sent) {
        sent = true
        controller.enqueue(bytes.slice(0, 1))
        return
      }
      // Never enqueues again: the client's deadline is what ends this.
      await new Promise(() => undefined)
    },
  })
  return new Response(stream)
}
