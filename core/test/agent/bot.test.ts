import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { MYCELIUM_SCOPES, SCOPE_METHODS } from '@mycelo/septum'
import { SandboxAdmission } from '../../agent/admission.ts'
import { scopeVerbs } from '../../agent/bot-scopes.ts'
import {
  type AgentRuntime,
  type ConfirmRequest,
  createBotAgent,
  type ExecuteResult,
} from '../../agent/index.ts'
import { type RunningSandbox, SandboxPool } from '../../agent/pool/pool.ts'
import type { ExecutionOptions } from '../../agent/runtime.ts'
import { localeOutcomes } from '../../mycelium/locale.ts'
import { principalsRead } from '../../mycelium/principals.ts'
import { roleNamesOf } from '../../store/index.ts'
import { type Bot, probeEnzyme, probeHypha, probeRhiza, startBot } from '../mycelium/harness.ts'

// A spore offering an operation of its own, labelled by its author.
const SHELF_OPERATIONS = `import { z } from 'zod'
const books = ['Dune']
const operations = {
  'books.list': { description: 'Books on the shelf', access: 'read', input: z.object({}), output: z.array(z.string()), run: () => [...books] },
  'books.add': { input: z.object({ title: z.string() }), output: z.number(), run: ({ title }) => books.push(title) },
}
`

// The same kind of operation declared with an Effect Schema, beside a Zod one in the same spore.
const LEDGER_OPERATIONS = `import { Schema } from 'effect'
import { z } from 'zod'
const operations = {
  'entries.since': {
    description: 'Entries after a moment',
    access: 'read',
    input: Schema.Struct({ after: Schema.Date }),
    output: Schema.Struct({ after: Schema.Date, count: Schema.NumberFromString }),
    run: ({ after }) => ({ after, count: after.getUTCFullYear() }),
  },
  'entries.count': { access: 'read', input: z.object({}), output: z.number(), run: () => 3 },
}
`

// An author's label that is not exactly read/write: a definition error, costing the spore its operations only.
const SLOPPY_OPERATIONS = `import { z } from 'zod'
const operations = { peek: { access: 'READ', input: z.object({}), output: z.null(), run: () => null } }
`

let bot: Bot
let owner: string
let guest: string

beforeAll(async () => {
  bot = await startBot({
    spores: {
      chat: probeHypha('chat'),
      admin: probeEnzyme('admin', { scopes: MYCELIUM_SCOPES }),
      tracker: probeRhiza('tracker'),
      victim: probeEnzyme('victim'),
      shelf: probeEnzyme('shelf', { preamble: SHELF_OPERATIONS, exports: 'operations,' }),
      attic: probeEnzyme('attic', { preamble: SHELF_OPERATIONS, exports: 'operations,' }),
      sloppy: probeEnzyme('sloppy', { preamble: SLOPPY_OPERATIONS, exports: 'operations,' }),
      ledger: probeEnzyme('ledger', { preamble: LEDGER_OPERATIONS, exports: 'operations,' }),
    },
    disabled: ['attic'],
  })
  await bot.emit('chat', 'hello', { from: 'guest' })
  const principals = principalsRead(bot.runtime)
  owner = (await principals.findByIdentity('chat', 'boss'))!.id
  guest = (await principals.findByIdentity('chat', 'guest'))!.id
})

afterAll(async () => {
  await bot.stop()
})

async function value(agent: AgentRuntime, program: string): Promise<unknown> {
  const result: ExecuteResult = await agent.execute({ program })
  if (!result.ok) throw new Error(`execute failed: ${result.message}`)
  return result.value
}

describe("the bot's own operations", () => {
  it('offers every mycelium scope method, under a module named for its scope', () => {
    const verbs = scopeVerbs(bot.runtime)
    for (const scope of MYCELIUM_SCOPES) {
      expect(Object.keys(verbs[scope]).sort()).toEqual([...SCOPE_METHODS[scope]].sort())
    }
    expect(verbs['plugins.read'].listPlugins!.access).toBe('read')
    expect(verbs['plugins.toggle'].enable!).toMatchObject({ access: 'write', confirm: false })
    for (const [scope, method] of [
      ['plugins.toggle', 'disable'],
      ['roles.manage', 'deleteRole'],
      ['sources.manage', 'deleteSource'],
      ['roles.assign', 'revokeRole'],
      ['sources.manage', 'inoculate'],
      ['sources.manage', 'uninstall'],
    ] as const) {
      expect((verbs[scope] as Record<string, { confirm?: boolean }>)[method]!.confirm).toBe(true)
    }
  })

  it("lists the bot's spores and reads its health", async () => {
    const agent = createBotAgent(bot.runtime, { principalId: owner, agent: 'test' })
    const listed = (await value(agent, 'return await env.plugins.read.listPlugins({})')) as { name: string }[]
    expect(listed.map((plugin) => plugin.name)).toEqual([
      'admin',
      'attic',
      'chat',
      'ledger',
      'shelf',
      'sloppy',
      'tracker',
      'victim',
    ])
    const health = await value(agent, 'return await env.health.read.health({})')
    expect(health).toEqual([
      { name: 'tracker', state: 'healthy', detail: 'tracker is fine', checkedAt: new Date(0).toISOString() },
    ])
  })

  it('disables a spore once a person confirms, and leaves it when they decline', async () => {
    const asked: ConfirmRequest[] = []
    let answer = false
    const agent = createBotAgent(bot.runtime, {
      principalId: owner,
      agent: 'test',
      access: { confirm: async (request) => asked.push(request) > 0 && answer },
    })
    const declined = await value(agent, `return await env.plugins.toggle.disable({ name: 'victim' })`)
    expect(declined).toMatchObject({
      refused: true,
      module: 'plugins.toggle',
      operation: 'disable',
      reason: 'declined',
    })
    expect(bot.plugins.installOf('victim')?.enabled).toBe(true)
    answer = true
    expect(await value(agent, `return await env.plugins.toggle.disable({ name: 'victim' })`)).toEqual({
      ok: true,
    })
    expect(bot.plugins.installOf('victim')?.enabled).toBe(false)
    expect(asked).toEqual([
      { module: 'plugins.toggle', operation: 'disable', access: 'write' },
      { module: 'plugins.toggle', operation: 'disable', access: 'write' },
    ])
    expect(await value(agent, `return await env.plugins.toggle.enable({ name: 'victim' })`)).toEqual({
      ok: true,
    })
  })

  it('answers a mycelium refusal as an ordinary result, worded for the person', async () => {
    const agent = createBotAgent(bot.runtime, {
      principalId: owner,
      agent: 'test',
      access: { confirm: async () => true },
    })
    expect(await value(agent, `return await env.plugins.toggle.disable({ name: 'nobody' })`)).toEqual({
      ok: false,
      refusal: 'refusal.plugin_unknown',
      params: { plugin: 'nobody' },
      message: bot.runtime.translator.render(
        { domain: 'common', key: 'refusal.plugin_unknown', params: { plugin: 'nobody' } },
        'en',
      ),
    })
  })

  it('holds the role ceiling for the person the agent acts for (“final external access checks remain host responsibilities”)', async () => {
    const forGuest = createBotAgent(bot.runtime, { principalId: guest, agent: 'test' })
    const refused = (await value(
      forGuest,
      `return await env.roles.assign.assignRole({ principalId: '${guest}', role: 'owner' })`,
    )) as { ok: boolean; refusal: string; message: string }
    expect(refused).toMatchObject({ ok: false, refusal: 'refusal.owner_only' })
    expect(refused.message).toBe('Only a holder of the role "owner" may grant or revoke it.')
    expect(roleNamesOf(bot.store, guest)).not.toContain('owner')
    const forOwner = createBotAgent(bot.runtime, { principalId: owner, agent: 'test' })
    expect(
      await value(forOwner, `return await env.roles.read.rolesOf({ principalId: '${guest}' })`),
    ).not.toContain('owner')
  })

  it("offers a live spore's operations under env.spores, and none of a disabled one's", async () => {
    const agent = createBotAgent(bot.runtime, {
      principalId: owner,
      agent: 'test',
      access: { grants: { shelf: 'read' } },
    })
    expect(await value(agent, 'return await env.spores.shelf.books.list({})')).toEqual(['Dune'])
    expect(await value(agent, `return await env.spores.shelf.books.add({ title: 'Emma' })`)).toMatchObject({
      refused: true,
      module: 'shelf',
      operation: 'books.add',
      reason: 'read-only',
    })
    expect(
      await value(agent, 'return [typeof env.spores.attic, forage.search("books").map((hit) => hit.path)]'),
    ).toEqual(['undefined', ['spores.shelf.books.add', 'spores.shelf.books.list']])
  })

  it('runs a spore’s operations declared with an Effect Schema beside a Zod one (“Declare input and output with an Effect schema or any Standard Schema”)', async () => {
    const agent = createBotAgent(bot.runtime, { principalId: owner, agent: 'test' })
    expect(
      await value(
        agent,
        `return [await spores.ledger.entries.since({ after: '2026-03-01T00:00:00.000Z' }), await spores.ledger.entries.count({})]`,
      ),
    ).toEqual([{ after: '2026-03-01T00:00:00.000Z', count: '2026' }, 3])
  })

  it('stops offering a spore that is no longer live (“A captured snapshot does not excuse a missing final authority check”)', async () => {
    const agent = createBotAgent(bot.runtime, { principalId: owner, agent: 'test' })
    expect(await value(agent, 'return typeof env.spores.shelf.books.list')).toBe('function')
    const shelf = bot.germination.byName.get('shelf')!
    shelf.state = 'dormant'
    try {
      const result = await agent.execute({ program: 'return await env.spores.shelf.books.list({})' })
      expect(result).toMatchObject({ ok: false, failure: { kind: 'CapabilityFailed', module: 'shelf' } })
      expect(await value(agent, 'return typeof env.spores?.shelf')).toBe('undefined')
    } finally {
      shelf.state = 'live'
    }
  })

  it('lets an agent switch off the admin spore: the agent itself stays a way back, so it is no lockout', async () => {
    const agent = createBotAgent(bot.runtime, {
      principalId: owner,
      agent: 'test',
      access: { confirm: async () => true },
    })
    const done = await value(agent, `return await env.plugins.toggle.disable({ name: 'admin' })`)
    expect(done).toMatchObject({ ok: true })
    expect(bot.plugins.installOf('admin')?.enabled).toBe(false)
    expect(await value(agent, `return await env.plugins.toggle.enable({ name: 'admin' })`)).toMatchObject({
      ok: true,
    })
    expect(bot.plugins.installOf('admin')?.enabled).toBe(true)
  })

  it("words the agent's own refusals from the catalogue, in the locale of the person it acts for", async () => {
    expect((await localeOutcomes(bot.runtime).setPrincipalLocale(guest, 'fr')).ok).toBe(true)
    try {
      const agent = createBotAgent(bot.runtime, {
        principalId: guest,
        agent: 'test',
        access: { grants: { 'plugins.toggle': 'read' } },
      })
      expect(await value(agent, `return await env.plugins.toggle.enable({ name: 'victim' })`)).toEqual({
        refused: true,
        module: 'plugins.toggle',
        operation: 'enable',
        reason: 'read-only',
        key: 'refusal.agent_read_only',
        message:
          'Refusé : cet agent peut seulement lire « plugins.toggle », et « enable » modifie quelque chose.',
      })
    } finally {
      await localeOutcomes(bot.runtime).setPrincipalLocale(guest, 'en')
    }
  })

  it("words a failed execute for the model in the person's language, with its reference", async () => {
    expect((await localeOutcomes(bot.runtime).setPrincipalLocale(guest, 'fr')).ok).toBe(true)
    try {
      const agent = createBotAgent(bot.runtime, { principalId: guest, agent: 'test' })
      const result = await agent.execute({ program: 'throw new Error("non")' })
      if (result.ok) throw new Error('the program was meant to fail')
      expect(result.message).toBe(
        `Le programme a levé une exception : Error: non (référence ${result.reference})`,
      )
    } finally {
      await localeOutcomes(bot.runtime).setPrincipalLocale(guest, 'en')
    }
  })

  it("words each failure the classifier reads by type in the person's language: a lost transport, a bad response, a foreign throw, a busy sandbox", async () => {
    class ThrowingPool extends SandboxPool {
      override start(): RunningSandbox {
        throw new RangeError('no worker today')
      }
    }
    const closed = new SandboxPool({ size: 1 })
    await closed.close()
    const garbling = new SandboxPool({
      size: 1,
      workerUrl: new URL('./workers/garbling.ts', import.meta.url),
    })
    const busy = new SandboxAdmission({ capacity: 1, admissionWaitMs: 1 })
    const held = await busy.acquire({
      signal: new AbortController().signal,
      deadlineAt: Date.now() + 60_000,
      timeoutMs: 60_000,
    })
    const failing = async (execution: ExecutionOptions) => {
      const agent = createBotAgent(bot.runtime, { principalId: guest, agent: 'test', execution })
      const result = await agent.execute({ program: 'return 1' })
      if (result.ok) throw new Error('the program was meant to fail')
      return result
    }
    expect((await localeOutcomes(bot.runtime).setPrincipalLocale(guest, 'fr')).ok).toBe(true)
    try {
      const lost = await failing({ pool: closed })
      expect(lost.failure).toEqual({ kind: 'TransportLost' })
      expect(lost.message).toBe(
        `Le bac à sable a cessé de répondre avant la fin du programme. (référence ${lost.reference})`,
      )
      const bad = await failing({ pool: garbling })
      expect(bad.failure).toEqual({ kind: 'BadResponse' })
      expect(bad.message).toBe(
        `Le bac à sable a répondu quelque chose qui n’est pas un résultat. (référence ${bad.reference})`,
      )
      const foreign = await failing({ pool: new ThrowingPool({ size: 1 }) })
      expect(foreign.failure).toEqual({ kind: 'Unknown' })
      expect(foreign.message).toBe(
        `L’exécution a échoué pour une raison que l’hôte n’a pas reconnue. (référence ${foreign.reference})`,
      )
      expect(foreign.message).not.toContain('no worker today')
      const contended = await failing({ admission: busy })
      expect(contended.failure).toMatchObject({ kind: 'SandboxBusy', code: 'sandbox-busy', capacity: 1 })
      expect(contended.message).toStartWith('[sandbox-busy] Les 1 bacs à sable sont restés occupés pendant')
      expect(contended.message).toContain('le programme n’a pas été lancé')
    } finally {
      held.release()
      await garbling.close()
      await localeOutcomes(bot.runtime).setPrincipalLocale(guest, 'en')
    }
  })

  it("offers none of a spore's operations when one is badly labelled, and leaves the spore live", async () => {
    const agent = createBotAgent(bot.runtime, { principalId: owner, agent: 'test' })
    expect(await value(agent, 'return [typeof env.spores.sloppy, typeof env.spores.shelf]')).toEqual([
      'undefined',
      'object',
    ])
    expect(bot.germination.byName.get('sloppy')?.state).toBe('live')
    const warned = bot.logger.entries.find((entry) => entry.message === 'spore operations refused')
    expect(warned?.meta).toMatchObject({ spore: 'sloppy' })
    expect(String(warned?.meta?.error)).toContain('access must be exactly "read" or "write"')
  })

  it('logs a failed execute under the reference the model was given (“the existing reporting path”)', async () => {
    const agent = createBotAgent(bot.runtime, { principalId: owner, agent: 'test' })
    const result = await agent.execute({ program: 'throw new Error("no")' })
    if (result.ok) throw new Error('expected a failure')
    const logged = bot.logger.entries.find((entry) => entry.meta?.reference === result.reference)
    expect(logged).toMatchObject({ level: 'warn', message: 'agent execute failed' })
    expect(logged?.meta).toMatchObject({ kind: 'GuestException', executionId: result.executionId })
  })
})
