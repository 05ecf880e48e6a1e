import type { AgentsManage } from '@mycelo/septum'
import { audited } from '../audit/audited.ts'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import {
  agentKeyOf,
  createAgentKey,
  listAgentKeys,
  revokeAgentKey,
  setAgentKeyConfirmation,
} from '../store/agent-keys.ts'
import { principalExists } from '../store/people.ts'
import { actingPrincipal, currentActor } from './actor.ts'
import { RoleCeiling } from './ceiling.ts'
import { DONE, refused } from './outcome.ts'

const MAX_LABEL = 64

/**
 * agents.manage: the keys an MCP client acts with. A person's key is always their own, so it never
 * reaches further than their roles; an agent mints none, so a leaked key cannot make itself more.
 */
export function agentsManage(runtime: CoreRuntime): AgentsManage {
  const { store, logger } = runtime
  const ceiling = new RoleCeiling(runtime)
  return audited(runtime, 'agents.manage', {
    async listAgentKeys() {
      // A person (or an agent for them) sees their own keys; the operator and a spore see all.
      return listAgentKeys(store, actingPrincipal(currentActor()))
    },
    async createAgentKey(label, principalId) {
      const actor = currentActor()
      if (actor?.kind === 'agent') return refused('agent_key_by_agent')
      // A spore acting on its own holds scopes, not a person's roles: it may not mint a key that
      // would act with someone's (the owner's) full authority.
      if (actor === undefined) return refused('agent_key_by_spore')
      const name = label.trim()
      if (name.length === 0 || name.length > MAX_LABEL) return refused('agent_key_label', { max: MAX_LABEL })
      const person = actor?.kind === 'principal' ? actor.principalId : principalId
      if (person === undefined) return refused('agent_key_principal_missing')
      if (actor?.kind === 'principal' && principalId !== undefined && principalId !== person) {
        return refused('agent_key_own_only', { principal: principalId })
      }
      if (!principalExists(store, person)) return refused('principal_unknown', { principal: person })
      const { record, secret } = createAgentKey(store, { label: name, principalId: person })
      logger.info('agent key created', { key: record.id, principal: person, by: actor?.kind ?? 'spore' })
      return { ok: true, value: { key: record, secret } }
    },
    async revokeAgentKey(id) {
      const key = agentKeyOf(store, id)
      if (key === undefined) return refused('agent_key_unknown', { id })
      if (key.revokedAt !== null) return refused('agent_key_revoked', { id })
      const capped = ceiling.outranks(key.principalId)
      if (capped) return capped
      revokeAgentKey(store, id)
      logger.info('agent key revoked', {
        key: id,
        principal: key.principalId,
        by: currentActor()?.kind ?? 'spore',
      })
      return DONE
    },
    async confirmAgentKeyIn(id, where) {
      const actor = currentActor()
      // Where a person is asked is part of what keeps an agent in check: never the agent's choice.
      if (actor?.kind === 'agent') return refused('agent_key_by_agent')
      const key = agentKeyOf(store, id)
      if (key === undefined) return refused('agent_key_unknown', { id })
      if (actor?.kind === 'principal' && actor.principalId !== key.principalId) {
        return refused('agent_key_own_only', { principal: key.principalId })
      }
      setAgentKeyConfirmation(store, id, where)
      logger.info('agent key confirmations moved', { key: id, over: where === null ? 'client' : 'chat' })
      return DONE
    },
  })
}
