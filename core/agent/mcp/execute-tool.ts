import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import type { ConfirmRequest } from '../access.ts'
import type { ExecuteResult } from '../runtime.ts'
import type { McpOptions, McpPrincipal } from './server.ts'

export const EXECUTE_DESCRIPTION = [
  'Runs a JavaScript program (an async function body; `return` its answer as JSON) against the bot.',
  'Operations are bound as `await env.<module>.<operation>(input)`, e.g. `env.plugins.read.listPlugins({})`;',
  'each top-level namespace is also a global, so `plugins.read.listPlugins({})` is the same call.',
  'Discover them first: `forage.list("plugins")` lists every operation under a path, `forage.search("spores")`',
  'finds operations by words, `forage.describe("plugins.toggle.disable")` gives one operation’s input and output JSON Schema and access label.',
  'Each call starts a fresh sandbox: nothing survives between calls; there is no network and no filesystem.',
  'A refused operation answers `{ refused: true, reason, message }`; some writes ask a person first.',
  'Declared:',
  'type Summary = { path: string; call: string; description: string; access: "read" | "write"; confirm: boolean };',
  'declare const forage: { list(prefix?: string): Summary[]; search(query: string, limit?: number): Summary[];',
  'describe(path: string): Summary & { module: string; operation: string; input: JSONSchema; output: JSONSchema } };',
  'declare const env: { [namespace: string]: { [name: string]: ((input: object) => Promise<unknown>) | typeof env[string] } };',
].join(' ')

/** The one tool of a connection: its program runs for the key's person, asked through the client where it can be. */
export function registerExecute(
  server: McpServer,
  options: McpOptions,
  principal: McpPrincipal,
  { resumed = false }: { resumed?: boolean } = {},
) {
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
      // A resumed connection has no recorded client capabilities: nobody can be asked over it.
      const confirm =
        !resumed && canElicitForms(server)
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
        ...(resumed ? { resumed: true as const } : {}),
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

export function authInfoOf(principal: McpPrincipal, request: Request) {
  return { token: '', clientId: principal.keyId, scopes: [], extra: { request } }
}
