import type { AgentKeyInfo, AgentsManage, Outcome, OutcomeOf, PushTarget } from '@mycelo/septum'
import { FakeSources } from './fake-sources.ts'

/** agents.manage in memory: every key is the reader's (`owner`), refusing with the core's keys. */
export class FakeAgentKeys extends FakeSources implements AgentsManage {
  readonly agentKeys: AgentKeyInfo[] = []

  async listAgentKeys(): Promise<readonly AgentKeyInfo[]> {
    return [...this.agentKeys]
  }

  async createAgentKey(label: string): Promise<OutcomeOf<{ key: AgentKeyInfo; secret: string }>> {
    const key = {
      id: `k${this.agentKeys.length + 1}`,
      label,
      principalId: 'owner',
      createdAt: new Date(0),
      lastUsedAt: null,
      revokedAt: null,
      confirmIn: null,
    }
    this.agentKeys.push(key)
    return { ok: true, value: { key, secret: `mycelo_ak_${key.id}_secret` } }
  }

  async revokeAgentKey(id: string): Promise<Outcome> {
    const index = this.agentKeys.findIndex((key) => key.id === id)
    if (index < 0) {
      return {
        ok: false,
        refusal: { domain: this.refusalDomain, key: 'refusal.agent_key_unknown', params: { id } },
      }
    }
    this.agentKeys[index] = { ...this.agentKeys[index]!, revokedAt: new Date(0) }
    return { ok: true }
  }

  async confirmAgentKeyIn(id: string, where: PushTarget | null): Promise<Outcome> {
    const index = this.agentKeys.findIndex((key) => key.id === id)
    if (index < 0) {
      return {
        ok: false,
        refusal: { domain: this.refusalDomain, key: 'refusal.agent_key_unknown', params: { id } },
      }
    }
    this.agentKeys[index] = { ...this.agentKeys[index]!, confirmIn: where }
    return { ok: true }
  }
}
