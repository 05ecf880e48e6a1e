// A sporangium index served from a folder over loopback HTTP, as any static web server would, with
// the faults a real network has on demand: an error status, a connection dropped mid-body, a
// redirect loop, a server that stalls, a body sent without its length.
import { existsSync, readFileSync, statSync } from 'node:fs'
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
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

/**
 * Serves `folder` statically on 127.0.0.1, on a port of the system's choosing. node:http rather
 * than Bun.serve, because a dropped connection must announce a length it then does not send.
 */
export async function serveIndex(folder: string): Promise<IndexServer> {
  const faults = new Map<string, ServedFault>()
  const requests: ServedRequest[] = []
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1')
    const path = decodeURIComponent(url.pathname)
    requests.push({ path, authorization: request.headers.authorization ?? null })
    answer(
      { folder, path, fault: faults.get(path), self: `http://127.0.0.1:${port()}${url.pathname}` },
      response,
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = () => (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port()}`,
    requests,
    fault(path, fault) {
      if (fault === undefined) faults.delete(path)
      else faults.set(path, fault)
    },
    async stop() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

interface Asked {
  readonly folder: string
  readonly path: string
  readonly fault: ServedFault | undefined
  readonly self: string
}

function answer({ folder, path, fault, self }: Asked, response: ServerResponse): void {
  if (fault?.kind === 'status') return void response.writeHead(fault.status).end('failing on purpose')
  if (fault?.kind === 'redirect-loop') return void response.writeHead(302, { location: self }).end()
  if (fault?.kind === 'redirect') return void response.writeHead(302, { location: fault.to }).end()
  const file = join(folder, normalize(path).replace(/^([/\\]*\.\.[/\\])+/, ''))
  if (!existsSync(file) || !statSync(file).isFile()) return void response.writeHead(404).end('not found')
  const bytes = readFileSync(file)
  if (fault?.kind === 'drop') {
    response.writeHead(200, { 'content-length': String(bytes.byteLength) })
    // Announced in full, sent in part, then the connection is cut.
    response.write(bytes.subarray(0, fault.after), () => setTimeout(() => response.socket?.destroy(), 10))
    return
  }
  if (fault?.kind === 'stall') {
    response.writeHead(200, { 'content-length': String(bytes.byteLength) })
    // One byte, then nothing: only the client's deadline ends this.
    response.write(bytes.subarray(0, 1))
    return
  }
  if (fault?.kind === 'unannounced') {
    response.writeHead(200, { 'transfer-encoding': 'chunked' })
    response.end(bytes)
    return
  }
  response.writeHead(200, { 'content-length': String(bytes.byteLength) }).end(bytes)
}
