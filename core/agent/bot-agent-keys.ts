import { z } from 'zod'
import { agentsManage } from '../mycelium/agents.ts'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import type { Verb } from './bot-scopes.ts'

/**
 * agents.manage as operations. Creating a key is refused to every agent by the mycelium itself;
 * it is offered so the catalogue matches the scope, and says why when called.
 */
export function agentKeyVerbs(runtime: CoreRuntime): Record<string, Verb> {
  const manage = agentsManage(runtime)
  const id = z.object({ id: z.string() })
  return {
    listAgentKeys: {
      description: 'The agent keys of the person this agent acts for (never their secrets)',
      access: 'read',
      input: z.object({}),
      call: () => manage.listAgentKeys(),
    },
    createAgentKey: {
      description: 'Refused to agents: a person creates keys',
      access: 'write',
      input: z.object({ label: z.string() }),
      call: (({ label }: { label: string }) => manage.createAgentKey(label)) as Verb['call'],
    },
    revokeAgentKey: {
      description: 'Revokes an agent key, this one included',
      access: 'write',
      confirm: true,
      input: id,
      call: (({ id }: { id: string }) => manage.revokeAgentKey(id)) as Verb['call'],
    },
    confirmAgentKeyIn: {
      description: 'Refused to agents: a person chooses where they are asked',
      access: 'write',
      input: id.extend({ where: z.object({ channel: z.string(), conversationId: z.string() }).nullable() }),
      call: (({ id, where }: { id: string; where: { channel: string; conversationId: string } | null }) =>
        manage.confirmAgentKeyIn(id, where)) as Verb['call'],
    },
  }
}
