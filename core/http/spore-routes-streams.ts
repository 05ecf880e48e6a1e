/**
 * The bodies spores' routes are still sending (a Chat stream stays open for as long as the page
 * does). The server ends them all when it stops: otherwise one open tab would hold the shut-down
 * forever, waiting on a request that only the spore's own stop — which comes later — would end.
 */
export class RouteStreams {
  readonly #open = new Set<() => void>()
  #closed = false

  /** Whether the server has stopped: a route answering now is refused rather than left open. */
  get closed(): boolean {
    return this.#closed
  }

  /** The response with its body passed through a stream this set can end; bodiless ones as they are. */
  track(response: Response): Response {
    const source = response.body
    if (source === null) return response
    const reader = source.getReader()
    let end = () => {}
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        end = () => {
          this.#open.delete(end)
          reader.cancel().catch(() => undefined)
          try {
            controller.close()
          } catch {
            // Closed already: the body had ended, or the reader went.
          }
        }
        this.#open.add(end)
      },
      pull: async (controller) => {
        const { done, value } = await reader.read()
        if (!done) return controller.enqueue(value)
        this.#open.delete(end)
        try {
          controller.close()
        } catch {
          // Ended from outside while the read was pending.
        }
      },
      cancel: (reason) => {
        this.#open.delete(end)
        return reader.cancel(reason)
      },
    })
    // A handler that answered after the server began to stop: its body ends at once.
    if (this.#closed) end()
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    })
  }

  /** Ends every body still being sent; later ones are ended as soon as they are tracked. */
  close(): void {
    this.#closed = true
    for (const end of [...this.#open]) end()
  }

  get size(): number {
    return this.#open.size
  }
}
