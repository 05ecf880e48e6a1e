// Agent keys, as chat's /agent-keys and /agent-key manage them: the person's own keys, listed
// without their secrets, created (the secret answered once, here and never again), revoked, and
// told where confirmations are asked. Every rule is agents.manage's; this only carries it.

import type { AgentKeyInfo } from '@mycelo/septum'
import { z } from 'zod'
import { agentsManage } from '../../mycelium/agents.ts'
import { guardOf } from '../../mycelium/guards.ts'
import { answerOutcome } from './answer.ts'
import { type ApiDeps, type ApiRoute, route } from './route.ts'

const createBody = z.strictObject({
  label: z.string().trim().min(1).max(64),
  /** Another person's id; agents.manage refuses any but the session's own, as chat does. */
  principalId: z.string().min(1).optional(),
})

const confirmBody = z.strictObject({
  /** `client`: asked through the MCP client's form; a conversation: asked over chat there. */
  where: z.union([
    z.literal('client'),
    z.strictObject({ channel: z.string().min(1), conversationId: z.string().min(1) }),
  ]),
})

/** A key as the page shows it: dates as ISO text, and nothing that could open it. */
function shown(key: AgentKeyInfo) {
  return {
    id: key.id,
    label: key.label,
    principalId: key.principalId,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
    confirmIn: key.confirmIn,
  }
}

export function agentKeyRoutes({ runtime }: ApiDeps): ApiRoute[] {
  const manage = agentsManage(runtime)
  return [
    route({
      method: 'get',
      path: '/agent-keys',
      summary: 'The session’s own agent keys, revoked ones too; never their secrets',
      guard: guardOf('agents.manage', 'listAgentKeys'),
      handle: async ({ c }) => c.json({ keys: (await manage.listAgentKeys()).map(shown) }),
    }),
    route({
      method: 'post',
      path: '/agent-keys',
      summary: 'Create an agent key acting for the session’s principal; the secret is answered this once',
      guard: guardOf('agents.manage', 'createAgentKey'),
      body: createBody,
      handle: async ({ c, body }) =>
        answerOutcome(runtime, c, await manage.createAgentKey(body.label, body.principalId), (made) => ({
          key: shown(made.key),
          secret: made.secret,
        })),
    }),
    route({
      method: 'delete',
      path: '/agent-keys/:id',
      summary: 'Revoke an agent key: its next request is refused',
      guard: guardOf('agents.manage', 'revokeAgentKey'),
      handle: async ({ c, param }) => answerOutcome(runtime, c, await manage.revokeAgentKey(param('id'))),
    }),
    route({
      method: 'put',
      path: '/agent-keys/:id/confirm',
      summary: 'Where the key’s confirmations are asked: in the MCP client, or over chat in a conversation',
      guard: guardOf('agents.manage', 'confirmAgentKeyIn'),
      body: confirmBody,
      handle: async ({ c, param, body }) =>
        answerOutcome(
          runtime,
          c,
          await manage.confirmAgentKeyIn(param('id'), body.where === 'client' ? null : body.where),
        ),
    }),
  ]
}
