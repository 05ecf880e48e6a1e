// agents.manage straight through the mycelium function every surface calls, as each actor: a
// person's key is their own, an agent mints and moves none, and nobody revokes a key of someone
// who holds more than they do.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type { Outcome, OutcomeOf } from '@mycelo/septum'
import { type Actor, actingAs } from '../../mycelium/actor.ts'
import { agentsManage } from '../../mycelium/agents.ts'
import { startTestCore, type TestCore } from '../support/runtime.ts'

let core: TestCore
beforeAll(async () => {
  core = await startTestCore({
    spores: {},
    roles: { helpers: ['help.*'] },
    grants: { owner: ['member'], helper: ['helpers'], other: ['helpers'] },
  })
})
afterAll(() => core.stop())

const idOf = (externalId: string) =>
  core.assembly.runtime.directory.resolve({ channel: 'chat', externalId }).id
const person = (externalId: string): Actor => ({
  kind: 'principal',
  principalId: idOf(externalId),
  channel: 'chat',
  spore: 'admin',
})
const agent = (externalId: string): Actor => ({ kind: 'agent', principalId: idOf(externalId), agent: 'key' })
const OPERATOR: Actor = { kind: 'operator', surface: 'cli' }
const manage = () => agentsManage(core.assembly.runtime)
const as = <T>(actor: Actor, work: () => Promise<T>) => actingAs(actor, work)
const refusalKey = (outcome: Outcome | OutcomeOf<unknown>) => (outcome.ok ? 'ok' : outcome.refusal.key)

describe('creating a key', () => {
  it('refuses a label that is empty or longer than 64 characters', async () => {
    expect(refusalKey(await as(OPERATOR, () => manage().createAgentKey('  ', idOf('helper'))))).toBe(
      'refusal.agent_key_label',
    )
    const long = 'x'.repeat(65)
    expect(refusalKey(await as(OPERATOR, () => manage().createAgentKey(long, idOf('helper'))))).toBe(
      'refusal.agent_key_label',
    )
  })

  it('asks the operator whom the key acts for, and refuses someone nobody knows', async () => {
    expect(refusalKey(await as(OPERATOR, () => manage().createAgentKey('laptop')))).toBe(
      'refusal.agent_key_principal_missing',
    )
    expect(refusalKey(await as(OPERATOR, () => manage().createAgentKey('laptop', 'nobody')))).toBe(
      'refusal.principal_unknown',
    )
  })

  it("makes a person's key their own, and refuses them one for someone else", async () => {
    const made = await as(person('helper'), () => manage().createAgentKey('phone'))
    expect(made.ok && made.value.key.principalId).toBe(idOf('helper'))
    const other = await as(person('helper'), () => manage().createAgentKey('phone', idOf('owner')))
    expect(refusalKey(other)).toBe('refusal.agent_key_own_only')
  })

  it('refuses an agent, even for the person it acts for', async () => {
    const made = await as(agent('helper'), () => manage().createAgentKey('more', idOf('helper')))
    expect(refusalKey(made)).toBe('refusal.agent_key_by_agent')
  })
})

describe('listing, moving and revoking keys', () => {
  it('refuses a spore acting on its own, whose scopes are not a person’s roles', async () => {
    expect(refusalKey(await manage().createAgentKey('timer', idOf('owner')))).toBe(
      'refusal.agent_key_by_spore',
    )
  })

  it("lists a person only their own keys, and the operator everyone's", async () => {
    await as(OPERATOR, () => manage().createAgentKey('desk', idOf('owner')))
    const own = await as(person('helper'), () => manage().listAgentKeys())
    expect(own.length).toBeGreaterThan(0)
    expect(own.every((key) => key.principalId === idOf('helper'))).toBe(true)
    const all = await as(OPERATOR, () => manage().listAgentKeys())
    expect(new Set(all.map((key) => key.principalId))).toEqual(new Set([idOf('helper'), idOf('owner')]))
  })

  it("refuses moving another person's confirmations, and an agent moving its own", async () => {
    const [ownersKey] = await as(person('owner'), () => manage().listAgentKeys())
    const moved = await as(person('helper'), () => manage().confirmAgentKeyIn(ownersKey!.id, null))
    expect(refusalKey(moved)).toBe('refusal.agent_key_own_only')
    const [helpersKey] = await as(person('helper'), () => manage().listAgentKeys())
    const byAgent = await as(agent('helper'), () => manage().confirmAgentKeyIn(helpersKey!.id, null))
    expect(refusalKey(byAgent)).toBe('refusal.agent_key_by_agent')
  })

  it("refuses revoking the key of someone who holds more, and revokes an equal's once", async () => {
    const [ownersKey] = await as(person('owner'), () => manage().listAgentKeys())
    const above = await as(person('helper'), () => manage().revokeAgentKey(ownersKey!.id))
    expect(refusalKey(above)).toBe('refusal.holder_owner')
    const made = await as(person('other'), () => manage().createAgentKey('tablet'))
    const id = made.ok ? made.value.key.id : ''
    expect(refusalKey(await as(person('helper'), () => manage().revokeAgentKey(id)))).toBe('ok')
    expect(refusalKey(await as(person('helper'), () => manage().revokeAgentKey(id)))).toBe(
      'refusal.agent_key_revoked',
    )
    expect(refusalKey(await as(OPERATOR, () => manage().revokeAgentKey('no-such-key')))).toBe(
      'refusal.agent_key_unknown',
    )
  })
})
