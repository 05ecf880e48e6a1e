import type { Socket } from 'bun'

/** A line longer than this is dropped rather than buffered without end. */
const MAX_LINE_CHARS = 16 * 1024 * 1024

/** Splits a byte stream into lines; a multi-byte character may straddle two chunks. */
export class LineSplitter {
  readonly #decoder = new TextDecoder()
  #partial = ''
  #overflowing = false

  constructor(private readonly onOverflow: (dropped: string) => void) {}

  push(chunk: Uint8Array): string[] {
    const parts = (this.#partial + this.#decoder.decode(chunk, { stream: true })).split('\n')
    this.#partial = parts.pop() ?? ''
    const lines = parts.map((line) => line.replace(/\r$/, ''))
    if (this.#overflowing && lines.length > 0) {
      // The first line ends the one already reported as too long.
      lines.shift()
      this.#overflowing = false
    }
    if (this.#partial.length > MAX_LINE_CHARS) {
      this.onOverflow(this.#partial)
      this.#partial = ''
      this.#overflowing = true
    }
    return lines
  }
}

/**
 * Writes to a socket without losing what the kernel did not take at once: the rest waits for
 * `drain`. An attachment sent as a data URI easily exceeds one write.
 */
export class SocketWriter {
  readonly #encoder = new TextEncoder()
  readonly #queue: Uint8Array[] = []

  constructor(private readonly socket: Socket<unknown>) {}

  write(text: string): void {
    this.#queue.push(this.#encoder.encode(text))
    if (this.#queue.length === 1) this.drain()
  }

  drain(): void {
    while (this.#queue.length > 0) {
      const head = this.#queue[0]!
      const written = this.socket.write(head)
      if (written < head.length) {
        this.#queue[0] = head.subarray(Math.max(written, 0))
        return
      }
      this.#queue.shift()
    }
  }
}
