import { availableParallelism } from 'node:os'
import { MYCELIUM_SCOPES } from '@mycelo/septum'
import type { CoreRuntime } from '../../rhizomorph/runtime.ts'
import { agentKeyOf, touchAgentKey, verifyAgentKey } from '../../store/agent-keys.ts'
import { agentSessionKey, forgetAgentSession, rememberAgentSession } from '../../store/agent-sessions.ts'
import { normalizeSandboxAdmissionPolicy, SandboxAdmission } from '../admission.ts'
import { createBotAgent } from '../bot-operations.ts'
import { SandboxPool } from '../pool/pool.ts'
import type { ExecutionOptions } from '../runtime.ts'
import { ChatConfirmations } from './chat-confirm.ts'
import { grantsAnything, grantsOf, nothingGranted } from './guards.ts'
import type { McpAuthentication, McpCatalog, McpExecution, McpOptions, McpPrincipal } from './server.ts'

export interface BotMcpOptions {
  /** The execute budget, limits and pool; one pool serves every connection. */
  readonly execution?: ExecutionOptions
}

const INSTRUCTIONS =
  'This is a Mycelo chat bot. Use the execute tool: discover operations with forage.search and forage.describe, then call them as env.<module>.<operation>(input). You act for the person whose key this is, never for more than their roles allow.'

/**
 * The bot's side of the MCP endpoint: agent keys as credentials, the key's person's roles as the
 * grants, read again at every call, and one sandbox pool for all connections.
 */
export function botMcp(
  runtime: CoreRuntime,
  options: BotMcpOptions = {},
): Pick<McpOptions, 'catalog' | 'authenticate' | 'sessions'> {
  const execution = { timeoutMs: runtime.config.timeouts.execute, ...options.execution }
  const admission =
    execution.admission ??
    new SandboxAdmission(normalizeSandboxAdmissionPolicy(execution, availableParallelism()))
  const pool = execution.pool ?? new SandboxPool({ size: admission.policy.capacity })
  const catalog = botCatalog(runtime, { ...execution, admission, pool }, new ChatConfirmations(runtime))
  return {
    authenticate: (request) => authenticateKey(runtime, request),
    catalog: {
      ...catalog,
      close: () => {
        catalog.close?.()
        // The workers are this endpoint's unless the caller brought them.
        if (execution.pool === undefined) void pool.close()
      },
    },
    sessions: {
      remember: (sessionId, principal) => rememberAgentSession(runtime.store, sessionId, principal.keyId),
      recall: (sessionId) => agentSessionKey(runtime.store, sessionId),
      forget: (sessionId) => forgetAgentSession(runtime.store, sessionId),
    },
  }
}

/**
 * A bearer agent key: unknown, malformed or revoked is 401; a key whose person is gone or whose
 * roles reach nothing an agent could use is 403.
 */
export function authenticateKey(runtime: CoreRuntime, request: Request): McpAuthentication {
  const header = request.headers.get('authorization') ?? ''
  const match = /^Bearer\s+(\S+)$/i.exec(header)
  if (match === null) return { kind: 'refused', status: 401 }
  const key = verifyAgentKey(runtime.store, match[1]!)
  if (key === undefined) return { kind: 'refused', status: 401 }
  if (runtime.directory.load(key.principalId) === undefined) return { kind: 'refused', status: 403 }
  if (!grantsAnything(grantsOf(runtime, key.principalId))) return { kind: 'refused', status: 403 }
  touchAgentKey(runtime.store, key.id)
  return { kind: 'admitted', principal: { principalId: key.principalId, keyId: key.id } }
}

function botCatalog(runtime: CoreRuntime, execution: ExecutionOptions, chat: ChatConfirmations): McpCatalog {
  return {
    instructions: INSTRUCTIONS,
    open: (call) =>
      openAgent(runtime, { ...call, confirm: personPort(runtime, call, { execution, chat }) }, execution),
    close: () => chat.close(),
    // Before a key is known there is no person to word it for: the bot's own language.
    refusal: (refusal, params) =>
      runtime.translator.render(
        { domain: 'core', key: `agent.http.${refusal}`, params },
        runtime.config.defaultLocale,
      ),
    confirmation: (principal, request) => {
      const locale = localeOf(runtime, principal)
      const render = (key: string, params?: Record<string, string>) =>
        runtime.translator.render({ domain: 'core', key, ...(params ? { params } : {}) }, locale)
      return {
        message: render('agent.confirmQuestion', { ...request }),
        field: render('agent.confirmField'),
      }
    },
  }
}

/**
 * One execute's runtime. Every module is named in the grants (an unnamed one is refused), the key
 * is authenticated again before each operation, and again, with the grants, after a person says yes.
 */
function openAgent(runtime: CoreRuntime, call: McpExecution, execution: ExecutionOptions) {
  const { principalId, keyId } = call.principal
  const current = async () => {
    const grants = grantsOf(runtime, principalId)
    return (await call.admitted()) ? grants : nothingGranted(grants)
  }
  const ask = call.confirm
  const confirm = ask
    ? async (request: Parameters<typeof ask>[0]) =>
        (await ask(request)) && (await current())[request.module] === 'write'
    : undefined
  return createBotAgent(runtime, {
    principalId,
    agent: `agent-key:${keyId}`,
    access: {
      // Every scope and every spore there is now: a module no grant names is refused.
      required: () => [...MYCELIUM_SCOPES, ...runtime.germination.spores.map((spore) => spore.name)],
      sessionGrants: current,
      ...(confirm ? { confirm } : {}),
      ...(call.resumed ? { resumed: true } : {}),
    },
    execution,
  })
}

/**
 * Who is asked: by default the client, through a form; a key whose person chose a conversation asks
 * there instead, and that person's yes or no decides within the execute's budget.
 */
function personPort(
  runtime: CoreRuntime,
  call: McpExecution,
  options: { execution: ExecutionOptions; chat: ChatConfirmations },
): McpExecution['confirm'] {
  const key = agentKeyOf(runtime.store, call.principal.keyId)
  const timeoutMs = options.execution.timeoutMs ?? DEFAULT_CONFIRM_MS
  if (key?.confirmIn == null) {
    const ask = call.confirm
    // An unanswered form would hold its sandbox past the deadline: no answer in time is a no.
    return ask && ((request) => answeredWithin(ask(request), timeoutMs))
  }
  const target = key.confirmIn
  return (request) =>
    options.chat.ask({
      principalId: key.principalId,
      target,
      request,
      label: key.label,
      timeoutMs,
      signal: call.signal,
    })
}

const DEFAULT_CONFIRM_MS = 30_000

function answeredWithin(answer: Promise<boolean>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms)
    answer.then(
      (yes) => {
        clearTimeout(timer)
        resolve(yes)
      },
      () => {
        clearTimeout(timer)
        resolve(false)
      },
    )
  })
}

function localeOf(runtime: CoreRuntime, principal: McpPrincipal): string {
  return runtime.directory.load(principal.principalId)?.locale ?? runtime.config.defaultLocale
}
