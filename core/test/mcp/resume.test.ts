// A connection carried on through the SDK's own client over real HTTP on loopback: after the
// network dropped (the bot still holds it), and after the whole bot was stopped and started again
// on the same folder and port (only the database remembers it). Every call on it reads the key's
// grants afresh; a write after the restart is not taken on an elicitation nobody recorded.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { MYCELIUM_SCOPES } from '@mycelo/septum'
import { botMcp, createMcp, type Mcp } from '../../agent/mcp/index.ts'
import { pluginsToggle } from '../../mycelium/plugins.ts'
import { principalsRead } from '../../mycelium/principals.ts'
import { rolesAssign, rolesManage } from '../../mycelium/roles.ts'
import { createAgentKey, verifyAgentKey } from '../../store/agent-keys.ts'
import { agentSessions } from '../../store/schema/index.ts'
import { type Bot, probeEnzyme, probeHypha, startBot } from '../mycelium/harness.ts'
import { type Connected, connect } from './connect.ts'

const SPORES = {
  chat: probeHypha('chat'),
  admin: probeEnzyme('admin', { scopes: MYCELIUM_SCOPES }),
  victim: probeEnzyme('victim'),
}
const TOGGLER = ['admin.plugins', 'admin.enable', 'admin.disable', 'admin.reload', 'admin.rescan']

let bot: Bot
let mcp: Mcp
let server: ReturnType<typeof Bun.serve>
let port: number
let url: URL
let watcher: string
let key: string

function serve(): void {
  mcp = createMcp(botMcp(bot.runtime, { execution: { timeoutMs: 2_000 } }))
  server = Bun.serve({ hostname: '127.0.0.1', port, fetch: (request) => mcp.handleRequest(request) })
  port = server.port ?? 0
  url = new URL(`http://127.0.0.1:${port}/mcp`)
}

/** The bot's process ends: its endpoint and server close, its connections in memory are gone. */
async function restartBot(): Promise<void> {
  await mcp.close()
  await server.stop(true)
  const root = bot.root
  await bot.halt()
  bot = await startBot({ spores: SPORES, root })
  serve()
}

beforeAll(async () => {
  bot = await startBot({ spores: SPORES })
  await bot.emit('chat', 'hello', { from: 'watcher' })
  watcher = (await principalsRead(bot.runtime).findByIdentity('chat', 'watcher'))!.id
  await rolesManage(bot.runtime).createRole('toggler', TOGGLER)
  await rolesAssign(bot.runtime).assignRole(watcher, 'toggler')
  key = createAgentKey(bot.store, { label: 'laptop', principalId: watcher }).secret
  port = 0
  serve()
})

afterAll(async () => {
  await mcp.close()
  await server.stop(true)
  await bot.stop()
})

const LIST = 'return (await env.plugins.read.listPlugins({})).map((p) => p.name)'
const DISABLE = `return await env.plugins.toggle.disable({ name: 'victim' })`
const ENABLE = `return await env.plugins.toggle.enable({ name: 'victim' })`
const sessionOf = (agent: Connected) => agent.client.transport?.sessionId ?? ''

describe('a connection carried on after its network dropped', () => {
  let sessionId: string

  it('carries on without initializing again, for the key that opened it (“resume returns only an open principal-bound Session”)', async () => {
    const first = await connect(url, { key, elicit: () => true })
    sessionId = sessionOf(first)
    expect(await first.execute(LIST)).toEqual({ ok: true, value: ['admin', 'chat', 'victim'] })
    await first.drop()
    const again = await connect(url, { key, sessionId, elicit: () => true })
    expect(sessionOf(again)).toBe(sessionId)
    expect(await again.execute(LIST)).toEqual({ ok: true, value: ['admin', 'chat', 'victim'] })
    // Its elicitation was recorded when it opened and the bot still holds it: a confirm write asks.
    expect(await again.execute(DISABLE)).toEqual({ ok: true, value: { ok: true } })
    expect(again.asked).toHaveLength(1)
    expect(await again.execute(ENABLE)).toEqual({ ok: true, value: { ok: true } })
    await again.drop()
    // Another key may not carry it on, even one of the same person.
    const other = createAgentKey(bot.store, { label: 'other', principalId: watcher }).secret
    await expect(
      connect(url, { key: other, sessionId }).then((agent) => agent.execute(LIST)),
    ).rejects.toThrow()
  })

  it('reads the grants again on every call after it carries on (“refresh delivers current grants”)', async () => {
    await rolesAssign(bot.runtime).revokeRole(watcher, 'toggler')
    await rolesManage(bot.runtime).createRole('lister', ['admin.plugins'])
    await rolesAssign(bot.runtime).assignRole(watcher, 'lister')
    const again = await connect(url, { key, sessionId, elicit: () => true })
    expect(await again.execute(ENABLE)).toEqual({
      ok: true,
      value: expect.objectContaining({ refused: true, module: 'plugins.toggle', reason: 'not-granted' }),
    })
    await rolesAssign(bot.runtime).assignRole(watcher, 'toggler')
    expect(await again.execute(ENABLE)).toEqual({ ok: true, value: { ok: true } })
    await again.drop()
  })
})

describe('a connection carried on after the bot was stopped and started again', () => {
  it('reads with the grants the restarted bot holds, and refuses a write no elicitation was recorded for (“After transport process loss, a resumed connection has no recorded client elicitation capability and refuses writes”) (“Durable Agent hosts implement McpCatalogProvider over their existing Session owner”; “Session retention and connection persistence remain with the catalog owner”)', async () => {
    const agent = await connect(url, { key, elicit: () => true })
    const sessionId = sessionOf(agent)
    expect(await agent.execute(LIST)).toEqual({ ok: true, value: ['admin', 'chat', 'victim'] })
    await agent.drop()
    await restartBot()
    const resumed = await connect(url, { key, sessionId, elicit: () => true })
    expect(await resumed.execute(LIST)).toEqual({ ok: true, value: ['admin', 'chat', 'victim'] })
    const write = await resumed.execute(DISABLE)
    expect(write).toEqual({ ok: true, value: expect.objectContaining({ refused: true, reason: 'resumed' }) })
    expect(resumed.asked).toEqual([])
    expect(bot.plugins.installOf('victim')?.enabled).toBe(true)
    // The restarted bot's roles decide: a role taken there applies to the next call, and a person
    // left with nothing an agent could use has the key refused at the door.
    await rolesAssign(bot.runtime).revokeRole(watcher, 'toggler')
    expect(await resumed.execute(ENABLE)).toEqual({
      ok: true,
      value: expect.objectContaining({ refused: true, reason: 'not-granted' }),
    })
    await rolesAssign(bot.runtime).revokeRole(watcher, 'lister')
    await expect(resumed.execute(LIST)).rejects.toThrow('no command an agent could use here')
    await rolesAssign(bot.runtime).assignRole(watcher, 'toggler')
    // Ended by its client, it is never carried on again; a fresh one asks and writes.
    await resumed.close()
    await expect(connect(url, { key, sessionId }).then((gone) => gone.execute(LIST))).rejects.toThrow()
    const fresh = await connect(url, { key, elicit: () => true })
    expect(await fresh.execute(DISABLE)).toEqual({ ok: true, value: { ok: true } })
    expect(fresh.asked).toHaveLength(1)
    expect(await fresh.execute(ENABLE)).toEqual({ ok: true, value: { ok: true } })
    await fresh.close()
  })
})

describe('what the bot keeps and asks', () => {
  it('keeps a connection by the key’s id and a digest of its own, never a secret (“Its ids identify the credential’s actor, never a bearer token”) (“without persisting request callbacks”)', async () => {
    const agent = await connect(url, { key, elicit: () => true })
    const sessionId = sessionOf(agent)
    const rows = bot.store.db.select().from(agentSessions).all()
    const kept = JSON.stringify(rows)
    expect(rows.some((row) => row.keyId === verifyAgentKey(bot.store, key)!.id)).toBe(true)
    expect(kept).not.toContain(key)
    expect(kept).not.toContain(sessionId)
    await agent.close()
  })

  it('runs a write with no confirm label without asking anyone (“MCP does not force confirmation for every write”)', async () => {
    const agent = await connect(url, { key, elicit: () => true })
    expect(await agent.execute(ENABLE)).toEqual({ ok: true, value: { ok: true } })
    expect(agent.asked).toEqual([])
    await agent.close()
  })
})

describe('an execute waiting on a person', () => {
  it('is suspended on the form and carries on, never running again what already ran (“an approval can suspend the existing execution without replaying already-completed operations”)', async () => {
    await pluginsToggle(bot.runtime, bot.runtime.plugins).disable('victim')
    const enables = () =>
      bot.logger.entries.filter(
        (entry) => entry.message === 'plugin enabled' && entry.meta?.plugin === 'victim',
      ).length
    const before = enables()
    const enabledWhenAsked: boolean[] = []
    const agent = await connect(url, {
      key,
      elicit: () => {
        enabledWhenAsked.push(bot.plugins.installOf('victim')?.enabled === true)
        return true
      },
    })
    const answer = await agent.execute(`const on = await env.plugins.toggle.enable({ name: 'victim' })
      const off = await env.plugins.toggle.disable({ name: 'victim' })
      return [on, off]`)
    expect(answer).toEqual({ ok: true, value: [{ ok: true }, { ok: true }] })
    // The enable had run when the person was asked, and ran once in all.
    expect(enabledWhenAsked).toEqual([true])
    expect(enables() - before).toBe(1)
    expect(bot.plugins.installOf('victim')?.enabled).toBe(false)
    await pluginsToggle(bot.runtime, bot.runtime.plugins).enable('victim')
    await agent.close()
  })
})
