import { randomUUID } from 'node:crypto'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import type { ConfirmRequest } from '../access.ts'
import type { AgentRuntime, ExecuteResult } from '../runtime.ts'
import { ENGLISH, jsonRpcError, type McpRefusal, STATUS } from './refusals.ts'

/** Who a credential acts for; its ids name the key and the person, never the bearer token. */
export interface McpPrincipal {
  readonly principalId: string
  readonly keyId: string
}

export type McpAuthentication =
  | { readonly kind: 'admitted'; readonly principal: McpPrincipal }
  | { readonly kind: 'refused'; readonly status: 401 | 403 }

/** What one execute needs from the host, all of it read again at each call. */
export interface McpExecution {
  readonly principal: McpPrincipal
  /** The person port over this connection; absent when the client cannot be asked. */
  readonly confirm?: (request: ConfirmRequest) => Promise<boolean>
  /** Authenticates the call's request again: before each operation and after each approval. */
  readonly admitted: () => Promise<boolean>
  /** Aborted when the client cancels the call or its connection ends. */
  readonly signal: AbortSignal
}

export interface McpCatalog {
  /** What the model is told about the bot when it connects. */
  readonly instructions: string
  /** A runtime for one execute, built from the current catalogue; closed when the call finishes. */
  open(execution: McpExecution): AgentRuntime
  /** The person-facing question of a form elicitation: module, operation and access label only. */
  confirmation(principal: McpPrincipal, request: ConfirmRequest): { message: string; field: string }
  /** Words an HTTP refusal for whoever reads the client's error; plain English otherwise. */
  refusal?(refusal: McpRefusal, params: { limit: number }): string
  /** Lets go of what the catalogue holds (a chat listener), when the endpoint closes. */
  close?(): void
}

export interface McpOptions {
  readonly catalog: McpCatalog
  readonly authenticate: (request: Request) => Promise<McpAuthentication> | McpAuthentication
  /** Open connections kept at once; the next initialize is refused until one closes. */
  readonly maxConnections?: number
  /**
   * How long a connection may go without a request before a new one may take its place: a client
   * that vanished without closing would otherwise hold its slot until the bot restarts.
   */
  readonly idleMs?: number
}

export interface Mcp {
  /** The fetch handler for the `/mcp` route: every method, every request authenticated first. */
  handleRequest(request: Request): Promise<Response>
  close(): Promise<void>
}

export const MAX_MCP_CONNECTIONS = 8
export const MCP_IDLE_MS = 30 * 60_000
const MAX_BODY_BYTES = 4 * 1024 * 1024
const SESSION_HEADER = 'mcp-session-id'

export const EXECUTE_DESCRIPTION = [
  'Runs a JavaScript program (an async function body; `return` its answer as JSON) against the bot.',
  'Operations are bound as `await env.<module>.<operation>(input)`, e.g. `env.plugins.read.listPlugins({})`.',
  'Discover them first: `await forage.search("spores")` lists matching operations with their paths,',
  '`await forage.describe("plugins.toggle.disable")` gives one operation’s input and output JSON Schema and access label.',
  'Each call starts a fresh sandbox: nothing survives between calls; there is no network and no filesystem.',
  'A refused operation answers `{ refused: true, reason, message }`; some writes ask a person first.',
].join(' ')

interface Connection {
  readonly principal: McpPrincipal
  /** The initialize request, kept for its credential: a connection whose key is gone gives up its slot. */
  readonly opened: Request
  /** When it last sent a request (epoch ms). */
  lastSeen: number
  readonly transport: WebStandardStreamableHTTPServerTransport
  readonly server: McpServer
}

/**
 * The MCP endpoint: Streamable HTTP sessions, one `execute` tool each. A session belongs to the
 * key that opened it; a request for it under any other credential is refused.
 */
export function createMcp(options: McpOptions): Mcp {
  const limit = options.maxConnections ?? MAX_MCP_CONNECTIONS
  const idleMs = options.idleMs ?? MCP_IDLE_MS
  const connections = new Map<string, Connection>()
  // Reserved synchronously before the initialize is awaited, so concurrent ones cannot overshoot.
  const opening = new Set<Connection>()
  let closed = false

  function refuse(refusal: McpRefusal): Response {
    let message = ENGLISH[refusal](limit)
    try {
      message = options.catalog.refusal?.(refusal, { limit }) ?? message
    } catch {
      // A wording that fails leaves the English one: the refusal itself stands.
    }
    const response = jsonRpcError(STATUS[refusal], message)
    if (refusal === 'unauthorized') response.headers.set('www-authenticate', 'Bearer')
    return response
  }

  async function handleRequest(request: Request): Promise<Response> {
    if (closed) return refuse('closed')
    const auth = await options.authenticate(request)
    if (auth.kind === 'refused') return refuse(auth.status === 401 ? 'unauthorized' : 'forbidden')
    const sessionId = request.headers.get(SESSION_HEADER)
    if (sessionId !== null) {
      const connection = connections.get(sessionId)
      // An unknown session (this process never had it, or lost it) must initialize again.
      if (connection === undefined) return refuse('unknownSession')
      if (connection.principal.keyId !== auth.principal.keyId) return refuse('forbidden')
      connection.lastSeen = Date.now()
      return connection.transport.handleRequest(request, { authInfo: authInfoOf(auth.principal, request) })
    }
    if (request.method !== 'POST') return refuse('noSession')
    const body = await boundedJson(request)
    if (body === 'too-large') return refuse('tooLarge')
    if (body === undefined || !isInitializeRequest(body)) {
      return refuse('noSession')
    }
    if (connections.size + opening.size >= limit) await pruneStale()
    if (connections.size + opening.size >= limit) {
      return refuse('full')
    }
    const connection = openConnection(auth.principal, request)
    opening.add(connection)
    try {
      await connection.server.connect(connection.transport)
      return await connection.transport.handleRequest(request, {
        parsedBody: body,
        authInfo: authInfoOf(auth.principal, request),
      })
    } finally {
      opening.delete(connection)
      // An initialize that failed never got a session: nothing to keep.
      if (connection.transport.sessionId === undefined) await connection.server.close()
    }
  }

  /** Closes the connections left idle too long, or whose key no longer authenticates (revoked, its person gone). */
  async function pruneStale() {
    for (const [id, connection] of connections) {
      const idle = Date.now() - connection.lastSeen > idleMs
      const auth = idle ? undefined : await options.authenticate(connection.opened)
      if (auth?.kind === 'admitted' && auth.principal.keyId === connection.principal.keyId) continue
      connections.delete(id)
      await connection.server.close()
    }
  }

  function openConnection(principal: McpPrincipal, opened: Request): Connection {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        connections.set(id, connection)
      },
      onsessionclosed: (id) => {
        connections.delete(id)
      },
    })
    transport.onclose = () => {
      if (transport.sessionId !== undefined) connections.delete(transport.sessionId)
    }
    const server = new McpServer(
      { name: 'mycelo', version: '1.0.0' },
      { capabilities: { tools: {} }, instructions: options.catalog.instructions },
    )
    const connection: Connection = { principal, opened, lastSeen: Date.now(), transport, server }
    registerExecute(server, options, principal)
    return connection
  }

  async function close() {
    closed = true
    const all = [...connections.values(), ...opening]
    connections.clear()
    await Promise.allSettled(all.map((connection) => connection.server.close()))
    options.catalog.close?.()
  }

  return { handleRequest, close }
}

function registerExecute(server: McpServer, options: McpOptions, principal: McpPrincipal) {
  server.registerTool(
    'execute',
    {
      description: EXECUTE_DESCRIPTION,
      inputSchema: { program: z.string().min(1).describe('The program: an async function body') },
    },
    async ({ program }, extra) => {
      const request = (extra.authInfo?.extra as { request?: Request } | undefined)?.request
      const admitted = async () => {
        if (request === undefined) return false
        const auth = await options.authenticate(request)
        return auth.kind === 'admitted' && auth.principal.keyId === principal.keyId
      }
      const confirm = canElicitForms(server)
        ? async (asked: ConfirmRequest) => {
            const { message, field } = options.catalog.confirmation(principal, asked)
            const answer = await server.server.elicitInput(
              {
                mode: 'form',
                message,
                requestedSchema: {
                  type: 'object',
                  properties: { confirm: { type: 'boolean', title: field } },
                  required: ['confirm'],
                },
              },
              { relatedRequestId: extra.requestId, signal: extra.signal },
            )
            return answer.action === 'accept' && answer.content?.confirm === true
          }
        : undefined
      const agent = options.catalog.open({
        principal,
        admitted,
        signal: extra.signal,
        ...(confirm ? { confirm } : {}),
      })
      try {
        const result = await agent.execute({
          program,
          toolCallId: String(extra.requestId),
          signal: extra.signal,
        })
        return toolResult(result)
      } finally {
        await agent.close()
      }
    },
  )
}

/** Only a client that declared form elicitation at initialize can be asked; any other confirm is refused. */
function canElicitForms(server: McpServer): boolean {
  const elicitation = server.server.getClientCapabilities()?.elicitation
  if (elicitation === undefined) return false
  // An empty capability object means form mode, for clients older than the modes.
  return Object.keys(elicitation).length === 0 || elicitation.form !== undefined
}

function toolResult(result: ExecuteResult) {
  if (result.ok) return { content: [{ type: 'text' as const, text: JSON.stringify(result.value) ?? 'null' }] }
  return { isError: true, content: [{ type: 'text' as const, text: result.message }] }
}

function authInfoOf(principal: McpPrincipal, request: Request) {
  return { token: '', clientId: principal.keyId, scopes: [], extra: { request } }
}

async function boundedJson(request: Request): Promise<unknown | 'too-large' | undefined> {
  const declared = Number(request.headers.get('content-length') ?? 0)
  if (declared > MAX_BODY_BYTES) return 'too-large'
  const text = await request.text()
  if (text.length > MAX_BODY_BYTES) return 'too-large'
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
