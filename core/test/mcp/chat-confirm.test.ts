// Confirmations asked over chat instead of the client: the bot writes the question in the key's
// conversation, and only a yes or a no from the key's own person decides.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { MYCELIUM_SCOPES } from '@mycelo/septum'
import { botMcp, createMcp } from '../../agent/mcp/index.ts'
import { agentsManage } from '../../mycelium/agents.ts'
import { principalsRead } from '../../mycelium/principals.ts'
import { createAgentKey } from '../../store/agent-keys.ts'
import { type Bot, probeEnzyme, probeHypha, startBot } from '../mycelium/harness.ts'
import { connect, serveMcp } from './connect.ts'

let bot: Bot
let endpoint: ReturnType<typeof serveMcp>
let secret: string

beforeAll(async () => {
  bot = await startBot({
    spores: {
      chat: probeHypha('chat'),
      admin: probeEnzyme('admin', { scopes: MYCELIUM_SCOPES }),
      victim: probeEnzyme('victim'),
    },
  })
  await bot.emit('chat', 'hello', { from: 'guest', group: 'ops' })
  const owner = (await principalsRead(bot.runtime).findByIdentity('chat', 'boss'))!.id
  const created = createAgentKey(bot.store, { label: 'desktop', principalId: owner })
  secret = created.secret
  const where = { channel: 'chat', conversationId: 'ops' }
  expect(await agentsManage(bot.runtime).confirmAgentKeyIn(created.record.id, where)).toEqual({ ok: true })
  endpoint = serveMcp(createMcp(botMcp(bot.runtime, { execution: { timeoutMs: 20_000 } })))
})

afterAll(async () => {
  await endpoint.stop()
  await bot.stop()
})

/** Waits for the bot's question in `ops`, and answers it. */
async function question(): Promise<string> {
  for (;;) {
    const said = bot.takeSent('chat', 'ops')
    if (said.length > 0) return said.join('\n')
    await Bun.sleep(5)
  }
}

describe('confirmations over chat', () => {
  it("runs the write on its person's yes, ignoring anyone else's and any other word (“The host’s durable approval owner decides whether a write applies”)", async () => {
    // A client that cannot show forms: the question goes to chat all the same.
    const agent = await connect(endpoint.url, { key: secret })
    const running = agent.execute(`return await env.plugins.toggle.disable({ name: 'victim' })`)
    expect(await question()).toBe(
      'Your agent “desktop” asks to run plugins.toggle disable (write). Reply yes to allow it, or no.',
    )
    await bot.emit('chat', 'yes', { from: 'guest', group: 'ops' })
    await bot.emit('chat', 'maybe', { from: 'boss', group: 'ops' })
    expect(bot.plugins.installOf('victim')?.enabled).toBe(true)
    await bot.emit('chat', 'Yes', { from: 'boss', group: 'ops' })
    expect(await running).toEqual({ ok: true, value: { ok: true } })
    expect(bot.plugins.installOf('victim')?.enabled).toBe(false)
    expect(await agent.execute(`return await env.plugins.toggle.enable({ name: 'victim' })`)).toEqual({
      ok: true,
      value: { ok: true },
    })
    await agent.close()
  })

  it('refuses the write on a no, and asks the client nothing', async () => {
    const agent = await connect(endpoint.url, { key: secret, elicit: () => true })
    const running = agent.execute(`return await env.plugins.toggle.disable({ name: 'victim' })`)
    await question()
    await bot.emit('chat', 'no', { from: 'boss', group: 'ops' })
    expect(await running).toEqual({
      ok: true,
      value: expect.objectContaining({ refused: true, reason: 'declined' }),
    })
    expect(agent.asked).toEqual([])
    expect(bot.plugins.installOf('victim')?.enabled).toBe(true)
    await agent.close()
  })
})
