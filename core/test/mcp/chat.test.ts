// Agent keys from chat: the shipped admin spore, granted agents.manage, through the real bus.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { agentKeyOf, verifyAgentKey } from '../../store/agent-keys.ts'
import { principalIdOf } from '../../store/index.ts'
import { realSpore } from '../support/real-spores.ts'
import { startTestCore, type TestCore } from '../support/runtime.ts'

/** Real spores and a real SQLite file on a shared machine: generous, never a measure. */
const START_TIMEOUT = 60_000

let core: TestCore

beforeAll(async () => {
  core = await startTestCore({
    spores: { admin: realSpore('admin') },
    roles: { keeper: ['admin.agent-key', 'admin.agent-keys', 'admin.plugins'] },
    grants: { friend: ['keeper'] },
  })
}, START_TIMEOUT)
afterAll(async () => {
  await core.stop()
})

const one = async (text: string, from?: string) => (await core.ask(text, from ? { from } : {})).join('\n')
const secretIn = (reply: string) => /mycelo_ak_\S+/.exec(reply)?.[0]

describe('agent keys from chat', () => {
  it("creates a key of the reader's own, shown once, and lists it without its secret", async () => {
    const reply = await one('/agent-key create my laptop', 'friend')
    const secret = secretIn(reply)!
    const key = verifyAgentKey(core.store, secret)!
    const friend = principalIdOf(core.store, { channel: 'chat', externalId: 'friend' })
    expect(key).toMatchObject({ label: 'my laptop', principalId: friend })
    expect(reply).toBe(
      `Agent key ${key.id} (“my laptop”) acts for you, never beyond your roles. Its secret, shown this once — give it to your MCP client as its bearer token:\n${secret}`,
    )
    const listed = await one('/agent-keys', 'friend')
    expect(listed).toStartWith('One agent key:\n')
    // The person by name, never by the bot's id for them.
    expect(listed).toContain(`${key.id} “my laptop” for friend`)
    expect(listed).not.toContain(friend)
    expect(listed).toContain('never used')
    expect(listed).not.toContain(secret)
    // The owner's list holds only the owner's keys.
    expect(await one('/agent-keys')).toBe(
      'There is no agent key. Create one with agent-key create and a label.',
    )
  })

  it('refuses to say a secret in a group', async () => {
    const reply = await one('/agent-key create shared', undefined)
    expect(secretIn(reply)).toBeDefined()
    const inGroup = (await core.ask('/agent-key create shared', { group: { id: 'g1' } })).join('\n')
    expect(inGroup).toBe(
      'Create agent keys in a direct message: a secret said here is read by everyone in this group.',
    )
  })

  it("revokes a key; nobody takes away an owner's key without being an owner", async () => {
    const ownerKey = secretIn(await one('/agent-key create desk'))!
    const ownerKeyId = verifyAgentKey(core.store, ownerKey)!.id
    const refused = await one(`/agent-key revoke ${ownerKeyId}`, 'friend')
    expect(refused).toContain('holds the role "owner", which you do not')
    expect(verifyAgentKey(core.store, ownerKey)).toBeDefined()
    expect(await one(`/agent-key revoke ${ownerKeyId}`)).toBe(
      `Agent key ${ownerKeyId} is revoked: it opens nothing from now on.`,
    )
    expect(agentKeyOf(core.store, ownerKeyId)?.revokedAt).toBeInstanceOf(Date)
    expect(await one(`/agent-key revoke ${ownerKeyId}`)).toBe(
      `The agent key "${ownerKeyId}" is already revoked.`,
    )
    expect(await one('/agent-key revoke nope')).toBe('There is no agent key "nope".')
  })

  it('moves where a key asks for confirmations: here in chat, or back to the client', async () => {
    const id = verifyAgentKey(core.store, secretIn(await one('/agent-key create phone', 'friend'))!)!.id
    expect(await one(`/agent-key confirm-here ${id}`, 'friend')).toBe(
      `Agent key ${id} now asks you here before each operation that needs a confirmation: reply yes or no.`,
    )
    expect(agentKeyOf(core.store, id)?.confirmIn).toEqual({ channel: 'chat', conversationId: 'dm-friend' })
    expect(await one('/agent-keys', 'friend')).toContain('“phone”')
    expect(await one('/agent-keys', 'friend')).toContain('confirms in chat')
    const ownerKeyId = verifyAgentKey(core.store, secretIn(await one('/agent-key create other'))!)!.id
    const owner = principalIdOf(core.store, { channel: 'chat', externalId: 'owner' })
    expect(await one(`/agent-key confirm-here ${ownerKeyId}`, 'friend')).toBe(
      `You can only create or change keys that act for you, not for "${owner}".`,
    )
    expect(await one(`/agent-key confirm-in-client ${id}`, 'friend')).toBe(
      `Agent key ${id} asks for confirmations through its MCP client again.`,
    )
    expect(agentKeyOf(core.store, id)?.confirmIn).toBeNull()
  })
})
