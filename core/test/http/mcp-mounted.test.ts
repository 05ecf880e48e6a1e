// The MCP endpoint as an operator reaches it: on the bot's own HTTP server, at /mcp.
import { afterEach, describe, expect, it } from 'bun:test'
import { createAgentKey } from '../../store/agent-keys.ts'
import { connect } from '../mcp/connect.ts'
import { startWebBot, type WebBot } from './web.ts'

let bot: WebBot | undefined
afterEach(async () => {
  await bot?.stop()
  bot = undefined
})

describe('/mcp on the bot’s own server', () => {
  it('lets an agent with the owner’s key list the spores, and refuses one without a key (“createMcp({ catalog, authenticate }), returning { handleRequest, close }”; “Mount handleRequest at the host’s MCP route”)', async () => {
    bot = await startWebBot()
    const { runtime } = bot.core.assembly
    const owner = runtime.directory.resolve({ channel: 'chat', externalId: 'owner' }).id
    const key = createAgentKey(runtime.store, { label: 'desktop', principalId: owner }).secret
    const endpoint = new URL('/mcp', bot.url)
    const anonymous = await fetch(endpoint, { method: 'POST', body: '{}' })
    expect(anonymous.status).toBe(401)
    const agent = await connect(endpoint, { key })
    try {
      const tools = await agent.client.listTools()
      expect(tools.tools.map((tool) => tool.name)).toEqual(['execute'])
      const listed = await agent.execute('return (await env.plugins.read.listPlugins({})).map((p) => p.name)')
      expect(listed).toMatchObject({ ok: true })
      expect(JSON.stringify(listed)).toContain('admin')
    } finally {
      await agent.close()
    }
  })
})
