// The companion's agent keys: create one for a person, list them, revoke one, through the
// agents.manage function chat uses, so both surfaces refuse alike.
import type { AgentKeyInfo } from '@mycelo/septum'
import { agentsManage } from '../mycelium/agents.ts'
import { principalNamed } from '../mycelium/principals.ts'
import { type Run, refusal, say } from './answer.ts'
import type { CliRuntime } from './runtime.ts'

export const AGENT_KEY_RUNS: Readonly<Record<string, Run>> = {
  async 'agent-key'(cli, [verb, ...rest]) {
    const manage = agentsManage(cli.runtime)
    if (verb === 'list') {
      const lines = (await manage.listAgentKeys()).map((key) => keyLine(cli, key))
      return { code: 0, text: lines.length === 0 ? say(cli, 'agent.noKeys') : lines.join('\n') }
    }
    if (verb === 'revoke') {
      const [id] = rest
      const done = await manage.revokeAgentKey(id!)
      return done.ok ? { code: 0, text: say(cli, 'agent.keyRevoked', { id }) } : refusal(cli, done.refusal)
    }
    if (verb === 'confirm') {
      // confirm <id> client | confirm <id> <channel> <conversation>
      const [id, channel, conversationId] = rest
      const where = channel === 'client' ? null : { channel: channel!, conversationId: conversationId! }
      const done = await manage.confirmAgentKeyIn(id!, where)
      if (!done.ok) return refusal(cli, done.refusal)
      const key = where === null ? 'agent.keyConfirmsInClient' : 'agent.keyConfirmsInChat'
      return { code: 0, text: say(cli, key, { id, channel, conversation: conversationId }) }
    }
    // create <principal> <label…>: the label may be several words.
    const [who, ...words] = rest
    const created = await manage.createAgentKey(words.join(' '), principalNamed(cli.runtime.store, who!))
    if (!created.ok) return refusal(cli, created.refusal)
    const { key, secret } = created.value
    return {
      code: 0,
      text: say(cli, 'agent.keyCreated', {
        id: key.id,
        label: key.label,
        principal: key.principalId,
        secret,
      }),
    }
  },
}

/** Whether `agent-key …` has the words its verb needs. */
export function agentKeyArgumentsFit(args: readonly string[]): boolean {
  const [verb, ...rest] = args
  if (verb === 'list') return rest.length === 0
  if (verb === 'revoke') return rest.length === 1
  if (verb === 'confirm') return rest[1] === 'client' ? rest.length === 2 : rest.length === 3
  return verb === 'create' && rest.length >= 2
}

function keyLine(cli: CliRuntime, key: AgentKeyInfo): string {
  return say(cli, 'agent.keyLine', {
    id: key.id,
    label: key.label,
    principal: key.principalId,
    created: key.createdAt.toISOString(),
    used: key.lastUsedAt?.toISOString() ?? 'never',
    revoked: key.revokedAt?.toISOString() ?? 'no',
  })
}
