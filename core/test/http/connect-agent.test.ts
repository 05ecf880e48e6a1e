// The README's "Connecting an agent", step by step, through the real bot: a key made in chat, the
// SDK's own client at the bot's /mcp, the operations the README names, a confirmed disable, the
// key list, and a revoke that shuts the agent out from its very next request.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { type Connected, connect } from '../mcp/connect.ts'
import { startWebBot, type WebBot } from './web.ts'

const GREETER = {
  'spore.yaml': `kind: enzyme
name: greeter
septum: "^1.0"
commands:
  - name: greet
    description: greet.description
    respond: greet.answer
`,
  'translations/en.yaml': 'greet:\n  description: Greets you\n  answer: hello\n',
}

let bot: WebBot
let agent: Connected
let keyId: string
beforeAll(async () => {
  bot = await startWebBot({ spores: { greeter: GREETER } })
})
afterAll(async () => {
  await agent?.client.close()
  await bot.stop()
})

describe('connecting an agent, as the README says', () => {
  it('1. creates a key in a direct message, its secret shown once', async () => {
    const reply = (await bot.core.ask('/agent-key create laptop')).join('\n')
    const secret = /mycelo_ak_\S+/.exec(reply)?.[0]
    expect(secret).toBeDefined()
    keyId = /^Agent key (\S+) /.exec(reply)?.[1] ?? ''
    expect(keyId).not.toBe('')
    // 2. The client at the bot's /mcp, the secret as its bearer token.
    agent = await connect(new URL('/mcp', bot.url), { key: secret!, elicit: () => true })
    expect((await agent.client.listTools()).tools.map((tool) => tool.name)).toEqual(['execute'])
  })

  it('finds operations with forage, lists the spores and reads the health, as env.<module>.<operation>', async () => {
    const found = await agent.execute(`return (await forage.search('disable')).map((hit) => hit.path)`)
    expect(found).toEqual({ ok: true, value: expect.arrayContaining(['plugins.toggle.disable']) })
    const listed = await agent.execute('return (await env.plugins.read.listPlugins({})).map((p) => p.name)')
    expect(listed).toEqual({ ok: true, value: expect.arrayContaining(['admin', 'greeter']) })
    expect(await agent.execute('return Array.isArray(await env.health.read.health({}))')).toEqual({
      ok: true,
      value: true,
    })
  })

  it('disables a spore once the person confirms the form, which names no argument', async () => {
    const answer = await agent.execute(`return await env.plugins.toggle.disable({ name: 'greeter' })`)
    expect(answer).toEqual({ ok: true, value: { ok: true } })
    expect(agent.asked).toHaveLength(1)
    expect(agent.asked[0]!.message).toContain('plugins.toggle disable (write)')
    expect(JSON.stringify(agent.asked[0])).not.toContain('greeter')
    expect((await bot.core.ask('/greet')).join('\n')).toStartWith("I don't know the command /greet.")
  })

  it('3. lists the key with its last use, and a revoke shuts the agent out from its next request', async () => {
    const listed = (await bot.core.ask('/agent-keys')).join('\n')
    expect(listed).toContain(`${keyId} “laptop”`)
    // It was used by the agent above: the list no longer says never.
    expect(listed).not.toContain('never used')
    expect((await bot.core.ask(`/agent-key revoke ${keyId}`)).join('\n')).toContain(
      `Agent key ${keyId} is revoked`,
    )
    await expect(agent.execute('return 1')).rejects.toThrow()
  })
})
