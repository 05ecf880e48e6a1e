/** Why a request was turned away before it reached a session. */
export type McpRefusal =
  | 'closed'
  | 'unauthorized'
  | 'forbidden'
  | 'unknownSession'
  | 'noSession'
  | 'tooLarge'
  | 'full'

export const STATUS: Readonly<Record<McpRefusal, number>> = {
  closed: 503,
  unauthorized: 401,
  forbidden: 403,
  unknownSession: 404,
  noSession: 400,
  tooLarge: 413,
  full: 503,
}

export const ENGLISH: Readonly<Record<McpRefusal, (limit: number) => string>> = {
  closed: () => 'The MCP endpoint is closed.',
  unauthorized: () => 'A valid agent key is required, as a bearer token.',
  forbidden: () => 'This agent key may not do that.',
  unknownSession: () => 'This session is unknown here: initialize a new one.',
  noSession: () => 'There is no session yet: initialize first.',
  tooLarge: () => 'The request is too large.',
  full: (limit) => `At most ${limit} connections may be open at once: close one first.`,
}

/** A JSON-RPC error with no id: the request never reached a session that could answer it. */
export function jsonRpcError(status: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }, { status })
}
