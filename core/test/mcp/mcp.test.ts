import { afterAll, afterEach, beforeAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { MYCELIUM_SCOPES } from '@mycelo/septum'
import { SandboxAdmission } from '../../agent/admission.ts'
import { botMcp, createMcp, MAX_MCP_CONNECTIONS } from '../../agent/mcp/index.ts'
import { pluginsToggle } from '../../mycelium/plugins.ts'
import { principalsRead } from '../../mycelium/principals.ts'
import { rolesAssign, rolesManage } from '../../mycelium/roles.ts'
import { createAgentKey, revokeAgentKey } from '../../store/agent-keys.ts'
import { writeSpore } from '../germination/fixtures.ts'
import { type Bot, probeEnzyme, probeHypha, probeRhiza, startBot } from '../mycelium/harness.ts'
import { type Connected, connect, serveMcp } from './connect.ts'

let bot: Bot
let endpoint: ReturnType<typeof serveMcp>
let admission: SandboxAdmission
const keys: Record<'owner' | 'watcher' | 'guest', string> = { owner: '', watcher: '', guest: '' }
let watcher: string
let owner: string
const open: Connected[] = []

beforeAll(async () => {
  bot = await startBot({
    spores: {
      chat: probeHypha('chat'),
      admin: probeEnzyme('admin', { scopes: MYCELIUM_SCOPES }),
      tracker: probeRhiza('tracker'),
      victim: probeEnzyme('victim'),
    },
  })
  await bot.emit('chat', 'hello', { from: 'guest' })
  await bot.emit('chat', 'hello', { from: 'watcher' })
  const principals = principalsRead(bot.runtime)
  owner = (await principals.findByIdentity('chat', 'boss'))!.id
  const guest = (await principals.findByIdentity('chat', 'guest'))!.id
  watcher = (await principals.findByIdentity('chat', 'watcher'))!.id
  // Two roles, so taking one away leaves the key still able to do something.
  await rolesManage(bot.runtime).createRole('lister', ['admin.plugins'])
  await rolesManage(bot.runtime).createRole('checker', ['admin.health'])
  await rolesAssign(bot.runtime).assignRole(watcher, 'lister')
  await rolesAssign(bot.runtime).assignRole(watcher, 'checker')
  keys.owner = createAgentKey(bot.store, { label: 'desktop', principalId: owner }).secret
  keys.watcher = createAgentKey(bot.store, { label: 'watch', principalId: watcher }).secret
  keys.guest = createAgentKey(bot.store, { label: 'guest', principalId: guest }).secret
  // One sandbox, a short admission wait and a short budget, so saturation and deadlines are quick.
  admission = new SandboxAdmission({ capacity: 1, admissionWaitMs: 50 })
  const mcp = createMcp(botMcp(bot.runtime, { execution: { admission, timeoutMs: 1_500 } }))
  endpoint = serveMcp(mcp)
})

afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()))
})

afterAll(async () => {
  await endpoint.stop()
  await bot.stop()
})

async function connected(options: Parameters<typeof connect>[1]): Promise<Connected> {
  const connection = await connect(endpoint.url, options)
  open.push(connection)
  return connection
}

async function post(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(endpoint.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  })
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
}

describe('the MCP endpoint', () => {
  it('offers one execute tool that says how to discover operations (“Mycelium gives an Agent typed operations through one execute tool”; “one top-level execute tool”; “descriptions declare the same nested, callable env”; “Guests still submit only code”)', async () => {
    const { client } = await connected({ key: keys.owner })
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toEqual(['execute'])
    // The guest submits a program, and nothing else.
    expect(Object.keys(tools[0]!.inputSchema.properties ?? {})).toEqual(['program'])
    expect(tools[0]!.description).toContain('forage.search')
    // The model reads both forms and the whole of forage, declared.
    expect(tools[0]!.description).toContain('`plugins.read.listPlugins({})` is the same call')
    expect(tools[0]!.description).toContain('declare const forage: { list(prefix?: string)')
    expect(tools[0]!.description).toContain('forage.describe')
    expect(client.getServerVersion()?.name).toBe('mycelo')
  })

  it('lets the agent discover operations as the tool describes (“Inner operations, including forage.search and forage.describe, stay behind that tool”)', async () => {
    const agent = await connected({ key: keys.owner })
    const found = await agent.execute(`return (await forage.search('disable')).map((hit) => hit.path)`)
    expect(found).toEqual({ ok: true, value: expect.arrayContaining(['plugins.toggle.disable']) })
    const described = await agent.execute(`return await forage.describe('plugins.toggle.disable')`)
    expect(described).toEqual({
      ok: true,
      value: expect.objectContaining({ module: 'plugins.toggle', access: 'write', confirm: true }),
    })
  })

  it("lists the bot's spores and reads its health", async () => {
    const agent = await connected({ key: keys.owner })
    const listed = await agent.execute('return (await env.plugins.read.listPlugins({})).map((p) => p.name)')
    expect(listed).toEqual({ ok: true, value: ['admin', 'chat', 'tracker', 'victim'] })
    expect(await agent.execute('return await env.health.read.health({})')).toEqual({
      ok: true,
      value: [
        {
          name: 'tracker',
          state: 'healthy',
          detail: 'tracker is fine',
          checkedAt: new Date(0).toISOString(),
        },
      ],
    })
  })

  it("refuses a write the key's person could not make in chat, without asking anyone", async () => {
    const agent = await connected({ key: keys.watcher, elicit: () => true })
    const answer = await agent.execute(`return await env.plugins.toggle.disable({ name: 'victim' })`)
    expect(answer).toEqual({
      ok: true,
      value: expect.objectContaining({ refused: true, module: 'plugins.toggle', reason: 'not-granted' }),
    })
    expect(agent.asked).toEqual([])
    expect(bot.plugins.installOf('victim')?.enabled).toBe(true)
  })

  it('disables a spore once the person accepts the form, asked only module, operation and access (“Explicit operation-level confirmation labels still use form elicitation”; “Approval requests contain the module, operation and access label, not credential data or operation arguments”)', async () => {
    const agent = await connected({ key: keys.owner, elicit: () => true })
    expect(await agent.execute(`return await env.plugins.toggle.disable({ name: 'victim' })`)).toEqual({
      ok: true,
      value: { ok: true },
    })
    expect(bot.plugins.installOf('victim')?.enabled).toBe(false)
    expect(agent.asked).toHaveLength(1)
    const [asked] = agent.asked
    expect(asked!.message).toBe(
      'An agent acting for you asks to run plugins.toggle disable (write). Allow it?',
    )
    expect(JSON.stringify(asked)).not.toContain('victim')
    expect(JSON.stringify(asked)).not.toContain(keys.owner)
    await agent.execute(`return await env.plugins.toggle.enable({ name: 'victim' })`)
    expect(bot.plugins.installOf('victim')?.enabled).toBe(true)
  })

  it('reads the grants again after the person says yes: a role taken meanwhile runs nothing (“It runs again before execution and after approval”; “refresh authority after acceptance”)', async () => {
    // plugins.toggle's every method, by the commands the guard table gives them.
    await rolesManage(bot.runtime).createRole('toggler', [
      'admin.enable',
      'admin.disable',
      'admin.reload',
      'admin.rescan',
    ])
    await rolesAssign(bot.runtime).assignRole(watcher, 'toggler')
    const agent = await connected({
      key: keys.watcher,
      elicit: async () => (await rolesAssign(bot.runtime).revokeRole(watcher, 'toggler')).ok,
    })
    const answer = await agent.execute(`return await env.plugins.toggle.disable({ name: 'victim' })`)
    expect(answer).toEqual({
      ok: true,
      value: expect.objectContaining({ refused: true, reason: 'declined' }),
    })
    expect(agent.asked).toHaveLength(1)
    expect(bot.plugins.installOf('victim')?.enabled).toBe(true)
  })

  it('lets the sandbox go when a form is never answered (here: the key revoked while asking)', async () => {
    const { secret, record } = createAgentKey(bot.store, { label: 'brief', principalId: owner })
    // The client's answer then comes back on a request that is refused 401, so none ever arrives.
    const agent = await connected({ key: secret, elicit: () => revokeAgentKey(bot.store, record.id) })
    const answer = await agent.execute(`return await env.plugins.toggle.disable({ name: 'victim' })`)
    expect(answer).toMatchObject({ ok: false })
    expect(bot.plugins.installOf('victim')?.enabled).toBe(true)
    while (admission.running > 0) await Bun.sleep(5)
    const other = await connected({ key: keys.owner })
    expect(await other.execute('return 4')).toEqual({ ok: true, value: 4 })
  })

  it('leaves the spore alone when the person declines (“Missing or declined explicit confirmation refuses execution”)', async () => {
    const agent = await connected({ key: keys.owner, elicit: () => false })
    const answer = await agent.execute(`return await env.plugins.toggle.disable({ name: 'victim' })`)
    expect(answer).toEqual({
      ok: true,
      value: expect.objectContaining({ refused: true, operation: 'disable', reason: 'declined' }),
    })
    expect(agent.asked).toHaveLength(1)
    expect(bot.plugins.installOf('victim')?.enabled).toBe(true)
  })

  it('refuses a confirm operation over a client that cannot be asked (“Missing or declined explicit confirmation refuses execution”)', async () => {
    const agent = await connected({ key: keys.owner })
    const answer = await agent.execute(`return await env.plugins.toggle.disable({ name: 'victim' })`)
    expect(answer).toEqual({ ok: true, value: expect.objectContaining({ reason: 'unconfirmable' }) })
    expect(bot.plugins.installOf('victim')?.enabled).toBe(true)
  })

  it('applies a role taken away to the very next call on the same connection (“returns the current { instructions, sources, grants } authorized for that principal”; “Each invocation must begin a fresh authority read”)', async () => {
    const agent = await connected({ key: keys.watcher })
    const list = 'return (await env.plugins.read.listPlugins({})).length'
    expect(await agent.execute(list)).toEqual({ ok: true, value: 4 })
    expect(await rolesAssign(bot.runtime).revokeRole(watcher, 'lister')).toEqual({ ok: true })
    expect(await agent.execute('return await env.plugins.read.listPlugins({})')).toEqual({
      ok: true,
      value: expect.objectContaining({ refused: true, module: 'plugins.read', reason: 'not-granted' }),
    })
    // What the person still holds still works.
    expect(await agent.execute('return (await env.health.read.health({})).length')).toEqual({
      ok: true,
      value: 1,
    })
    await rolesAssign(bot.runtime).assignRole(watcher, 'lister')
  })

  it('never lets an agent mint a key, even for a person who could', async () => {
    const agent = await connected({ key: keys.owner })
    const answer = await agent.execute(`return await env.agents.manage.createAgentKey({ label: 'more' })`)
    expect(answer).toEqual({
      ok: true,
      value: expect.objectContaining({ ok: false, refusal: 'refusal.agent_key_by_agent' }),
    })
  })

  it('answers 401 to no key, an unknown key and a revoked one, on every request (“Authentication runs for every HTTP request, including notifications and disconnects, and before each operation”; “status: 401 | 403”)', async () => {
    await expect(connect(endpoint.url)).rejects.toThrow()
    expect((await post(INITIALIZE)).status).toBe(401)
    expect((await post(INITIALIZE, { authorization: 'Bearer mycelo_ak_000000000000_nothing' })).status).toBe(
      401,
    )
    const { secret, record } = createAgentKey(bot.store, { label: 'soon gone', principalId: watcher })
    const agent = await connect(endpoint.url, { key: secret })
    const sessionId = (agent.client.transport as { sessionId?: string }).sessionId!
    expect(revokeAgentKey(bot.store, record.id)).toBe(true)
    const headers = {
      authorization: `Bearer ${secret}`,
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
    }
    const notification = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers)
    expect(notification.status).toBe(401)
    expect(notification.headers.get('www-authenticate')).toBe('Bearer')
    expect(((await notification.json()) as { error: { message: string } }).error.message).toBe(
      'A valid agent key is required, as a bearer token. Create one with agent-key create.',
    )
    const disconnect = await fetch(endpoint.url, { method: 'DELETE', headers })
    expect(disconnect.status).toBe(401)
    await expect(agent.execute('return 1')).rejects.toThrow()
    await agent.client.close()
  })

  it("answers 403 to a key whose person can do nothing here, and to another key's session (“status: 401 | 403”)", async () => {
    expect((await post(INITIALIZE, { authorization: `Bearer ${keys.guest}` })).status).toBe(403)
    const agent = await connected({ key: keys.owner })
    const sessionId = (agent.client.transport as { sessionId?: string }).sessionId!
    const theirs = {
      authorization: `Bearer ${keys.watcher}`,
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
    }
    expect((await post({ jsonrpc: '2.0', id: 7, method: 'tools/list' }, theirs)).status).toBe(403)
  })

  it('answers SandboxBusy while every sandbox is held, here by a person still deciding (“Admission belongs to the existing runtime-wide backing-work tracker”; “it is contention, not an Unknown health alert”; “an actionable coded message”)', async () => {
    let decide: (yes: boolean) => void = () => undefined
    const deciding = new Promise<boolean>((resolve) => {
      decide = resolve
    })
    const holding = await connected({ key: keys.owner, elicit: () => deciding })
    const waiting = await connected({ key: keys.owner })
    const held = holding.execute(`return await env.plugins.toggle.disable({ name: 'victim' })`)
    while (holding.asked.length === 0) await Bun.sleep(5)
    expect(admission.running).toBe(1)
    expect(await waiting.execute('return 1')).toEqual({
      ok: false,
      text: expect.stringContaining('[sandbox-busy]'),
    })
    decide(false)
    expect(await held).toEqual({ ok: true, value: expect.objectContaining({ reason: 'declined' }) })
    while (admission.running > 0) await Bun.sleep(5)
    expect(await waiting.execute('return 1')).toEqual({ ok: true, value: 1 })
  })

  it('stops an infinite loop at its deadline, and the connection goes on', async () => {
    const agent = await connected({ key: keys.owner })
    expect(await agent.execute('while (true) {}')).toEqual({
      ok: false,
      text: expect.stringContaining('did not finish within 1500 ms'),
    })
    while (admission.running > 0) await Bun.sleep(5)
    expect(await agent.execute('return 3')).toEqual({ ok: true, value: 3 })
  })

  it(`keeps at most ${MAX_MCP_CONNECTIONS} connections open and refuses the next`, async () => {
    for (let n = 0; n < MAX_MCP_CONNECTIONS; n++) await connected({ key: keys.owner })
    expect((await post(INITIALIZE, { authorization: `Bearer ${keys.owner}` })).status).toBe(503)
    await expect(connect(endpoint.url, { key: keys.owner })).rejects.toThrow()
    await open.pop()!.close()
    const ninth = await connected({ key: keys.owner })
    expect(await ninth.execute('return 2')).toEqual({ ok: true, value: 2 })
  })

  it('refuses the operations of a spore that appeared after the key was made, unless its person has its commands (“Grants are explicit: an omitted module is refused”)', async () => {
    const watching = await connected({ key: keys.watcher })
    const boss = await connected({ key: keys.owner })
    await writeSpore(join(bot.root, 'spores'), 'latecomer', {
      ...probeEnzyme('latecomer', {
        preamble: `import { z } from 'zod'
const operations = { peek: { access: 'read', input: z.object({}), output: z.string(), run: () => 'seen' } }
`,
        exports: 'operations,',
      }),
    })
    const toggle = pluginsToggle(bot.runtime, bot.runtime.plugins)
    await toggle.rescan!()
    expect(await toggle.enable('latecomer')).toMatchObject({ ok: true })
    // Both connections were open before the spore existed; each call reads the grants afresh.
    expect(await watching.execute('return await env.spores.latecomer.peek({})')).toEqual({
      ok: true,
      value: expect.objectContaining({ refused: true, module: 'latecomer', reason: 'not-granted' }),
    })
    expect(await boss.execute('return await spores.latecomer.peek({})')).toEqual({ ok: true, value: 'seen' })
  })
})
