import { randomUUID } from 'node:crypto'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js'
import type { ConfirmRequest } from '../access.ts'
import type { AgentRuntime } from '../runtime.ts'
import { authInfoOf, registerExecute } from './execute-tool.ts'
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
  /** Set on a connection resumed after the bot lost it (a restart): no write may run over it. */
  readonly resumed?: true
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
  /**
   * Where connections are remembered beyond this process, so a client can carry on after the bot
   * restarts. Resumed, a connection has no recorded client capabilities: it reads, and refuses
   * every write until the client initializes afresh. Without it, an unknown session is a 404.
   */
  readonly sessions?: McpSessions
}

export interface McpSessions {
  remember(sessionId: string, principal: McpPrincipal): void
  /** The key that opened it, when this endpoint (in this process or an earlier one) did. */
  recall(sessionId: string): string | undefined
  forget(sessionId: string): void
}

export interface Mcp {
  /** The fetch handler for the `/mcp` route: every method, every request authenticated first. */
  handleRequest(request: Request): Promise<Response>
  close(): Promise<void>
}

export { EXECUTE_DESCRIPTION } from './execute-tool.ts'
export const MAX_MCP_CONNECTIONS = 8
export const MCP_IDLE_MS = 30 * 60_000
const MAX_BODY_BYTES = 4 * 1024 * 1024
const SESSION_HEADER = 'mcp-session-id'

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
      if (connection === undefined) return resume(request, sessionId, auth.principal)
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

  /**
   * A session this process does not hold: one an earlier process opened is carried on, read-only,
   * one request at a time; one nobody opened must initialize again (404).
   */
  async function resume(request: Request, sessionId: string, principal: McpPrincipal): Promise<Response> {
    const keyId = options.sessions?.recall(sessionId)
    if (keyId === undefined) return refuse('unknownSession')
    if (keyId !== principal.keyId) return refuse('forbidden')
    if (request.method === 'DELETE') {
      options.sessions?.forget(sessionId)
      return new Response(null, { status: 200 })
    }
    // No stream to push on: whatever the server would send unasked has no one to reach.
    if (request.method !== 'POST')
      return new Response(null, { status: 405, headers: { allow: 'POST, DELETE' } })
    const body = await boundedJson(request)
    if (body === 'too-large') return refuse('tooLarge')
    // Stateless: each request its own transport and server, answered as one JSON body.
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true })
    const server = new McpServer(
      { name: 'mycelo', version: '1.0.0' },
      { capabilities: { tools: {} }, instructions: options.catalog.instructions },
    )
    registerExecute(server, options, principal, { resumed: true })
    try {
      await server.connect(transport)
      const answer = await transport.handleRequest(request, {
        ...(body === undefined ? {} : { parsedBody: body }),
        authInfo: authInfoOf(principal, request),
      })
      answer.headers.set(SESSION_HEADER, sessionId)
      return answer
    } finally {
      await server.close()
    }
  }

  /** Closes the connections left idle too long, or whose key no longer authenticates (revoked, its person gone). */
  async function pruneStale() {
    for (const [id, connection] of connections) {
      const idle = Date.now() - connection.lastSeen > idleMs
      const auth = idle ? undefined : await options.authenticate(connection.opened)
      if (auth?.kind === 'admitted' && auth.principal.keyId === connection.principal.keyId) continue
      connections.delete(id)
      // Given away, not lost: its client must initialize again, never carry on.
      options.sessions?.forget(id)
      await connection.server.close()
    }
  }

  function openConnection(principal: McpPrincipal, opened: Request): Connection {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        connections.set(id, connection)
        options.sessions?.remember(id, principal)
      },
      // The client ended it: it is never resumed.
      onsessionclosed: (id) => {
        connections.delete(id)
        options.sessions?.forget(id)
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
