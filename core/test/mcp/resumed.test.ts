// A connection carried on after the bot lost it (a restart: the endpoint's memory is gone, its
// database is not), through the SDK's own client over real HTTP. Resumed, it has no recorded client
// elicitation capability: it reads; a write asks the person again in chat when the key is asked
// there, and is refused otherwise, saying how to get writes back.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { MYCELIUM_SCOPES } from '@mycelo/septum'
import { botMcp, createMcp, type Mcp } from '../../agent/mcp/index.ts'
import { agentsManage } from '../../mycelium/agents.ts'
import { principalsRead } from '../../mycelium/principals.ts'
import { createAgentKey, verifyAgentKey } from '../../store/agent-keys.ts'
import { type Bot, probeEnzyme, probeHypha, startBot } from '../mycelium/harness.ts'
import { type Connected, connect } from './connect.ts'

let bot: Bot
let mcp: Mcp
let server: ReturnType<typeof Bun.serve>
let url: URL
let owner: string
let key: string

/** The bot's process ends and a new one starts: connections in memory are gone, the database stays. */
async function restartEndpoint(): Promise<void> {
  await mcp.close()
  mcp = createMcp(botMcp(bot.runtime, { execution: { timeoutMs: 2_000 } }))
}

beforeAll(async () => {
  bot = await startBot({
    spores: {
      chat: probeHypha('chat'),
      admin: probeEnzyme('admin', { scopes: MYCELIUM_SCOPES }),
      victim: probeEnzyme('victim'),
    },
  })
  owner = (await principalsRead(bot.runtime).findByIdentity('chat', 'boss'))!.id
  key = createAgentKey(bot.store, { label: 'desktop', principalId: owner }).secret
  mcp = createMcp(botMcp(bot.runtime, { execution: { timeoutMs: 2_000 } }))
  // One address for both lives of the endpoint, as the bot's own server keeps its port.
  server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (request) => mcp.handleRequest(request) })
  url = new URL(`http://127.0.0.1:${server.port}/mcp`)
})

afterAll(async () => {
  await mcp.close()
  await server.stop(true)
  await bot.stop()
})

const DISABLE = `return await env.plugins.toggle.disable({ name: 'victim' })`
const ENABLE = `return await env.plugins.toggle.enable({ name: 'victim' })`
const LIST = 'return (await env.plugins.read.listPlugins({})).map((p) => p.name)'

describe('a connection resumed after the bot restarted', () => {
  let agent: Connected

  it('reads as before', async () => {
    agent = await connect(url, { key, elicit: () => true })
    expect(await agent.execute(LIST)).toEqual({ ok: true, value: ['admin', 'chat', 'victim'] })
    await restartEndpoint()
    expect(await agent.execute(LIST)).toEqual({ ok: true, value: ['admin', 'chat', 'victim'] })
  })

  it('refuses a write that asks a person, asking nobody, and says how to write again', async () => {
    const answer = await agent.execute(DISABLE)
    expect(answer).toEqual({
      ok: true,
      value: expect.objectContaining({ refused: true, module: 'plugins.toggle', reason: 'resumed' }),
    })
    const { message } = (answer as { value: { message: string } }).value
    expect(message).toContain('resumed after the bot restarted')
    expect(message).toContain('initialize again')
    expect(agent.asked).toEqual([])
    expect(bot.plugins.installOf('victim')?.enabled).toBe(true)
  })

  it('refuses a write that asks nobody too', async () => {
    const answer = await agent.execute(ENABLE)
    expect(answer).toEqual({ ok: true, value: expect.objectContaining({ refused: true, reason: 'resumed' }) })
  })

  it('belongs to the key that opened it: another key is refused 403 on it (“The MCP server independently checks the stored principal”)', async () => {
    const other = createAgentKey(bot.store, { label: 'other', principalId: owner }).secret
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${other}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': agent.client.transport?.sessionId ?? '',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} }),
    })
    expect(response.status).toBe(403)
  })

  it('ends when the client ends it: never resumed again, a fresh connection asks and writes (“Delete that connection and initialize a fresh one to negotiate form elicitation again”)', async () => {
    const sessionId = agent.client.transport?.sessionId ?? ''
    await agent.close()
    const again = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} }),
    })
    expect(again.status).toBe(404)
    const fresh = await connect(url, { key, elicit: () => true })
    expect(await fresh.execute(DISABLE)).toEqual({ ok: true, value: { ok: true } })
    expect(fresh.asked).toHaveLength(1)
    expect(bot.plugins.installOf('victim')?.enabled).toBe(false)
    await fresh.execute(ENABLE)
    await fresh.close()
  })
})

describe('a connection resumed after the bot restarted, for a key asked in chat', () => {
  it('asks the person again for every write (“a write over a resumed session asks again”), and a no refuses', async () => {
    await bot.emit('chat', 'hello', { from: 'boss', group: 'ops' })
    const chatKey = createAgentKey(bot.store, { label: 'laptop', principalId: owner }).secret
    const id = verifyAgentKey(bot.store, chatKey)!.id
    const where = { channel: 'chat', conversationId: 'ops' }
    expect(await agentsManage(bot.runtime).confirmAgentKeyIn(id, where)).toEqual({ ok: true })
    const agent = await connect(url, { key: chatKey })
    expect(await agent.execute(LIST)).toEqual({ ok: true, value: ['admin', 'chat', 'victim'] })
    await restartEndpoint()
    bot.takeSent('chat', 'ops')
    const question = async () => {
      for (;;) {
        const said = bot.takeSent('chat', 'ops')
        if (said.length > 0) return said.join('\n')
        await Bun.sleep(5)
      }
    }
    // enable carries no confirm label; over the resumed connection it asks all the same.
    const enabling = agent.execute(ENABLE)
    expect(await question()).toContain('asks to run plugins.toggle enable (write)')
    await bot.emit('chat', 'yes', { from: 'boss', group: 'ops' })
    expect(await enabling).toEqual({ ok: true, value: { ok: true } })
    const disabling = agent.execute(DISABLE)
    expect(await question()).toContain('plugins.toggle disable (write)')
    await bot.emit('chat', 'no', { from: 'boss', group: 'ops' })
    expect(await disabling).toEqual({ ok: true, value: expect.objectContaining({ reason: 'declined' }) })
    expect(bot.plugins.installOf('victim')?.enabled).toBe(true)
    // Reads are not asked about.
    expect(await agent.execute(LIST)).toEqual({ ok: true, value: ['admin', 'chat', 'victim'] })
    expect(bot.takeSent('chat', 'ops')).toEqual([])
    await agent.close()
  })
})

describe('closing the endpoint', () => {
  it('closes every connection: its client is refused, and nothing new is opened (“close() closes transport streams”)', async () => {
    const agent = await connect(url, { key, elicit: () => true })
    expect(await agent.execute('return 1')).toEqual({ ok: true, value: 1 })
    await mcp.close()
    await expect(agent.execute('return 2')).rejects.toThrow('The bot')
    await expect(connect(url, { key })).rejects.toThrow('closed')
    await agent.client.close()
    // A fresh endpoint, for afterAll to close like any other.
    mcp = createMcp(botMcp(bot.runtime))
  })
})
