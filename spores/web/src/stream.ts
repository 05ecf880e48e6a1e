import type { Reply, ReplyBook } from './replies.ts'

/** A comment this often keeps Bun's idle timer and any proxy from closing a quiet stream. */
export const KEEPALIVE_MS = 5_000

export interface StreamOptions {
  readonly book: ReplyBook
  readonly conversationId: string
  /** The last reply id the page saw (EventSource's Last-Event-ID on a reconnect), if any. */
  readonly afterId: number | undefined
  /** Called once the stream ends, whoever ends it; `track` receives how to end it from outside. */
  readonly track: (end: () => void) => () => void
}

const encoder = new TextEncoder()

/** One Server-Sent Event: `event:` and `id:` lines, then the JSON on one `data:` line. */
export function sseEvent(event: string, data: unknown, id?: number): Uint8Array {
  const idLine = id === undefined ? '' : `id: ${id}\n`
  return encoder.encode(`event: ${event}\n${idLine}data: ${JSON.stringify(data)}\n\n`)
}

/**
 * The conversation's replies as an event stream: `ready` first, then each kept reply the page has
 * not seen, then each new one as it is sent. Ends when the page goes or the hypha stops.
 */
export function replyStream(options: StreamOptions): Response {
  const { book, conversationId, afterId } = options
  let end: (() => void) | undefined
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true
      const push = (bytes: Uint8Array) => {
        if (open) controller.enqueue(bytes)
      }
      const reply = (sent: Reply) => push(sseEvent('reply', { text: sent.text, at: sent.at }, sent.id))
      push(sseEvent('ready', { conversationId }))
      for (const kept of book.since(conversationId, afterId)) reply(kept)
      const close = book.open(conversationId, reply)
      const beat = setInterval(() => push(encoder.encode(': keepalive\n\n')), KEEPALIVE_MS)
      let untrack = () => {}
      end = () => {
        if (!open) return
        open = false
        clearInterval(beat)
        close()
        untrack()
        try {
          controller.close()
        } catch {
          // Already cancelled by the reader: nothing left to close.
        }
      }
      untrack = options.track(end)
    },
    cancel() {
      end?.()
    },
  })
  return new Response(body, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    },
  })
}

/** A reply id from a Last-Event-ID header or an `after` query, or undefined when there is none. */
export function replyIdOf(text: string | null): number | undefined {
  if (text === null || !/^\d{1,15}$/.test(text)) return undefined
  return Number(text)
}
