// What the official channels' fakes share: an HTTP server on 127.0.0.1 that a test can take away
// (every connection closed, the port refusing) and bring back on the same port, as a service that
// goes down and comes back at the address the bot was given.

export interface Loopback {
  /** http://127.0.0.1:<port>, the same before and after an absence. */
  readonly url: string
  /** Closes the server and every open connection: calls meanwhile are refused. */
  away(): Promise<void>
  /** Listens again on the same port. */
  back(): void
  stop(): Promise<void>
}

export function serveLoopback(fetch: (request: Request) => Response | Promise<Response>): Loopback {
  const listen = (port: number) => Bun.serve({ hostname: '127.0.0.1', port, idleTimeout: 0, fetch })
  let server: ReturnType<typeof listen> | undefined = listen(0)
  const port = server.port
  if (port === undefined) throw new Error('the loopback server has no port')
  return {
    url: `http://127.0.0.1:${port}`,
    async away() {
      const gone = server
      server = undefined
      await gone?.stop(true)
    },
    back() {
      server ??= listen(port)
    },
    async stop() {
      await server?.stop(true)
      server = undefined
    },
  }
}
