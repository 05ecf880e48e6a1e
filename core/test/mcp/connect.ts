import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { type ElicitRequest, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import type { Mcp } from '../../agent/mcp/index.ts'

/** The endpoint on its own loopback server, as the bot's HTTP server mounts it. */
export function serveMcp(mcp: Mcp): { url: URL; stop(): Promise<void> } {
  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (request) => mcp.handleRequest(request) })
  return {
    url: new URL(`http://127.0.0.1:${server.port}/mcp`),
    stop: async () => {
      await mcp.close()
      await server.stop(true)
    },
  }
}

export interface ClientOptions {
  /** The bearer token; none sends no Authorization header. */
  readonly key?: string
  /** A connection to carry on (the SDK's reconnect: no initialize, the same session id). */
  readonly sessionId?: string
  /** Answers each form elicitation; without it the client declares no elicitation capability. */
  readonly elicit?: (request: ElicitRequest['params']) => boolean | Promise<boolean>
}

export interface Connected {
  readonly client: Client
  readonly asked: ElicitRequest['params'][]
  /** Runs a program through the execute tool: its text answer parsed, or the error text. */
  execute(program: string): Promise<{ ok: true; value: unknown } | { ok: false; text: string }>
  /** Ends the connection: the server forgets it. */
  close(): Promise<void>
  /** Drops the transport only, as a lost network would; the connection stays the server's. */
  drop(): Promise<void>
}

/** Connects the SDK's own client over Streamable HTTP. */
export async function connect(url: URL, options: ClientOptions = {}): Promise<Connected> {
  const elicit = options.elicit
  const client = new Client(
    { name: 'mycelo-test', version: '1.0.0' },
    { capabilities: elicit ? { elicitation: { form: {} } } : {} },
  )
  const asked: ElicitRequest['params'][] = []
  if (elicit !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params)
      return (await elicit(request.params))
        ? { action: 'accept', content: { confirm: true } }
        : { action: 'decline' }
    })
  }
  const headers: Record<string, string> = options.key ? { authorization: `Bearer ${options.key}` } : {}
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers },
    ...(options.sessionId ? { sessionId: options.sessionId } : {}),
  })
  await client.connect(transport)
  return {
    client,
    asked,
    async execute(program) {
      const result = await client.callTool({ name: 'execute', arguments: { program } })
      const text = (result.content as { type: string; text: string }[])[0]!.text
      return result.isError ? { ok: false, text } : { ok: true, value: JSON.parse(text) }
    },
    close: async () => {
      await transport.terminateSession().catch(() => undefined)
      await client.close()
    },
    drop: () => client.close(),
  }
}
