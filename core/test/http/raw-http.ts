// HTTP/1.1 over a plain socket, for what fetch will not send: a body that is still arriving, a
// declared length that never comes, a Host of the test's choosing, a source address of 127.0.0.x.
import { connect, type Socket } from 'node:net'

export interface RawAnswer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

export interface RawExchange {
  /** The answer, whenever the server gives it (before the body is whole, if it refuses early). */
  readonly answer: Promise<RawAnswer>
  /** Writes more of the request; a socket the server already closed takes nothing, silently. */
  write(data: string | Uint8Array): Promise<void>
  close(): void
}

export interface RawRequest {
  readonly url: string
  readonly method: string
  readonly path: string
  readonly headers?: Readonly<Record<string, string>>
  /** Written right after the head; more may follow with write(). */
  readonly body?: string | Uint8Array
  /** The local address to connect from, e.g. 127.0.0.7. */
  readonly from?: string
}

/** Opens a connection, writes the head (and `body` if given), and reads whatever answer comes. */
export async function rawExchange(request: RawRequest): Promise<RawExchange> {
  const target = new URL(request.url)
  const socket: Socket = await new Promise((resolve, reject) => {
    const opened = connect(
      {
        host: target.hostname,
        port: Number(target.port),
        ...(request.from ? { localAddress: request.from } : {}),
      },
      () => resolve(opened),
    )
    opened.once('error', reject)
  })
  socket.on('error', () => {})
  const chunks: Buffer[] = []
  const answer = new Promise<RawAnswer>((resolve) => {
    const settle = () => {
      const parsed = parse(Buffer.concat(chunks).toString('utf8'))
      if (parsed !== undefined) resolve(parsed)
      return parsed !== undefined
    }
    socket.on('data', (data: Buffer) => {
      chunks.push(data)
      if (settle()) socket.destroy()
    })
    socket.on('close', () => {
      if (!settle()) resolve({ status: 0, headers: {}, body: Buffer.concat(chunks).toString('utf8') })
    })
  })
  const headers = { host: target.host, ...request.headers }
  const head = `${request.method} ${request.path} HTTP/1.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`
  const write = (data: string | Uint8Array) =>
    new Promise<void>((resolve) => {
      if (socket.destroyed || !socket.writable) return resolve()
      socket.write(data, () => resolve())
    })
  await write(head)
  if (request.body !== undefined) await write(request.body)
  return { answer, write, close: () => socket.destroy() }
}

/** One whole answer in `text` (by its content-length or its chunks), or undefined while partial. */
function parse(text: string): RawAnswer | undefined {
  const end = text.indexOf('\r\n\r\n')
  if (end < 0) return undefined
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  const rest = text.slice(end + 4)
  const status = Number(statusLine!.split(' ')[1])
  const length = headers['content-length']
  if (length !== undefined) {
    return Buffer.byteLength(rest) >= Number(length) ? { status, headers, body: rest } : undefined
  }
  if (headers['transfer-encoding'] === 'chunked') {
    if (!rest.endsWith('0\r\n\r\n')) return undefined
    return { status, headers, body: unchunk(rest) }
  }
  return { status, headers, body: rest }
}

function unchunk(text: string): string {
  let body = ''
  let at = 0
  for (;;) {
    const line = text.indexOf('\r\n', at)
    const size = Number.parseInt(text.slice(at, line), 16)
    if (!size) return body
    body += text.slice(line + 2, line + 2 + size)
    at = line + 2 + size + 2
  }
}

/** A chunk of a chunked body, framed. */
export function chunk(data: string): string {
  return `${Buffer.byteLength(data).toString(16)}\r\n${data}\r\n`
}
