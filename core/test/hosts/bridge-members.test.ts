import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { hostKeeper } from '../../hosts/keeper.ts'
import { startWebBot, type WebBot } from '../http/web.ts'
import type { TestCore } from '../support/runtime.ts'

// Each bridged member a context offers, crossing into and out of hosts, against a running bot with
// real spores on disk: `lib` and `keeper` and `gate` run isolated, `ilib` and `inl` inline.

/** A rhiza whose api doubles, names its host, and fails with a name and a code; lib also has routes. */
function rhiza(name: string, routes: boolean): Record<string, string> {
  return {
    'spore.yaml': `kind: rhiza
name: ${name}
septum: "^1.0"
${
  routes
    ? `routes:
  - { method: POST, path: /hook, access: public, code: hook }
  - { method: GET, path: /slow, access: public, code: slow }
  - { method: GET, path: /aborted, access: public, code: aborted }
`
    : ''
}`,
    'src/index.ts': `
const hostId = crypto.randomUUID()
let aborted = 0
export default {
  create: () => ({
    async start() {},
    async stop() {},
    async health() { return { state: 'healthy', checkedAt: new Date() } },
    api: {
      double: (n) => n * 2,
      pid: () => hostId,
      fail: () => {
        const error = new Error('no such film')
        error.name = 'LookupError'
        error.code = 'E_NOFILM'
        throw error
      },
    },
    routes: {
      async hook(request, ctx) {
        const got = await request.json()
        return Response.json(
          { got, header: request.headers.get('x-test'), method: request.method, aborted: ctx.signal.aborted },
          { status: 202, headers: { 'x-answer': 'yes' } },
        )
      },
      slow(request, ctx) {
        return new Promise((resolve) => {
          ctx.signal.addEventListener('abort', () => { aborted++; resolve(new Response('late')) })
        })
      },
      aborted: () => Response.json({ aborted }),
    },
  }),
}
`,
  }
}

/** An enzyme whose `/<name> <rhiza> <member> <n>` calls a rhiza's api it keeps from its first call. */
function consumer(name: string): Record<string, string> {
  return {
    'spore.yaml': `kind: enzyme
name: ${name}
septum: "^1.0"
requires: [{ rhiza: lib }, { rhiza: ilib }]
commands:
  - { name: ${name}, description: call, code: call }
`,
    'src/index.ts': `
const held = {}
export default {
  create: () => ({
    handlers: {
      async call(invocation, ctx) {
        const [rhiza, member, n] = invocation.rest.split(' ')
        held[rhiza] ??= ctx.rhiza(rhiza)
        try {
          await ctx.reply({ text: \`\${rhiza} \${member} \${await held[rhiza][member](Number(n))}\` })
        } catch (error) {
          await ctx.reply({ text: \`\${rhiza} threw \${error.name}|\${error.message}|\${error.code}\` })
        }
      },
    },
  }),
}
`,
  }
}

/** An isolated enzyme exercising its schedule, storage transactions and migrations. */
const KEEPER = {
  'spore.yaml': `kind: enzyme
name: keeper
septum: "^1.0"
commands:
  - { name: sched, description: sched, code: sched }
  - { name: ran, description: ran, code: ran }
  - { name: tx, description: tx, code: tx }
  - { name: mig, description: mig, code: mig }
`,
  'src/index.ts': `
export default {
  migrations: [
    { version: 1, up: (tx) => tx.set('migrated', ['v1']) },
    { version: 2, up: (tx) => tx.set('migrated', [...tx.get('migrated'), 'v2']) },
  ],
  create: () => ({
    handlers: {
      async sched(_invocation, ctx) {
        const entry = await ctx.schedule.once(new Date(Date.now() + 300), { id: 'soon', data: { who: 'keeper' } }, async (run) => {
          await ctx.storage.set('ran', { id: run.id, data: run.data, aborted: run.signal.aborted })
        })
        const listed = await ctx.schedule.list('so')
        await ctx.reply({ text: \`scheduled \${entry.id} \${listed.map((e) => e.id).join(',')}\` })
      },
      async ran(_invocation, ctx) {
        await ctx.reply({ text: JSON.stringify((await ctx.storage.get('ran')) ?? null) })
      },
      async tx(_invocation, ctx) {
        const n = await ctx.storage.transaction((tx) => {
          const next = (tx.get('n') ?? 0) + 1
          tx.set('n', next)
          return next
        })
        let code
        try {
          await ctx.storage.transaction((tx) => {
            tx.set('n', 100)
            const error = new Error('rolled back')
            error.code = 'E_ROLL'
            throw error
          })
        } catch (error) {
          code = \`\${error.message}|\${error.code}\`
        }
        await ctx.reply({ text: \`\${n} \${await ctx.storage.get('n')} \${code}\` })
      },
      async mig(_invocation, ctx) {
        await ctx.reply({ text: JSON.stringify(await ctx.storage.get('migrated')) })
      },
    },
  }),
}
`,
}

/** An isolated advisory inhibitor that reports what groupMembers and requireCapability answer it. */
const GATE = {
  'spore.yaml': 'kind: inhibitor\nname: gate\nseptum: "^1.0"\nenforcing: false\n',
  'src/index.ts': `
export default {
  create: () => ({
    async inspect(message, ctx) {
      if (message.text !== 'probe the gate') return { allow: true }
      const members = await ctx.groupMembers('chat', 'g1')
      ctx.requireCapability('chat', 'group_membership')
      let refused
      try {
        ctx.requireCapability('chat', 'edits')
      } catch (error) {
        refused = \`\${error.name}: \${error.message}\`
      }
      ctx.logger.info('gate probed', { members, refused })
      return { allow: true }
    },
  }),
}
`,
}

let web: WebBot
let core: TestCore
beforeAll(async () => {
  web = await startWebBot({
    spores: {
      lib: rhiza('lib', true),
      ilib: rhiza('ilib', false),
      iso: consumer('iso'),
      inl: consumer('inl'),
      keeper: KEEPER,
      gate: GATE,
    },
    config: `timeouts: { handler: 1500 }\nisolation:\n  default: worker\n  spores: { chat: inline, admin: inline, ilib: inline, inl: inline }\n`,
  })
  core = web.core
}, 60_000)
afterAll(() => web?.stop())

const ask = (text: string) => core.ask(text)
const instanceOf = (name: string) => core.germination.byName.get(name)?.instance

describe('bridged members, isolated', () => {
  it('runs where the policy says', () => {
    for (const name of ['lib', 'iso', 'keeper', 'gate'])
      expect(hostKeeper.hostOf(instanceOf(name))).toBeDefined()
    for (const name of ['ilib', 'inl']) expect(hostKeeper.hostOf(instanceOf(name))).toBeUndefined()
  })

  it("an inline enzyme calls an isolated rhiza's api, and the reverse", async () => {
    expect(await ask('/inl lib double 21')).toEqual(['lib double 42'])
    expect(await ask('/iso ilib double 4')).toEqual(['ilib double 8'])
    expect(await ask('/iso lib double 5')).toEqual(['lib double 10'])
  })

  it('an error crosses with its name, message and code, each way', async () => {
    const crossed = 'threw LookupError|no such film|E_NOFILM'
    expect(await ask('/inl lib fail 0')).toEqual([`lib ${crossed}`])
    expect(await ask('/iso ilib fail 0')).toEqual([`ilib ${crossed}`])
    expect(await ask('/iso lib fail 0')).toEqual([`lib ${crossed}`])
  })

  it("a held rhiza api reaches the rhiza's new host after it was restarted", async () => {
    const before = (await ask('/iso lib pid 0'))[0]
    expect((await ask('/inl lib pid 0'))[0]).toBe(before!)
    const old = hostKeeper.hostOf(instanceOf('lib'))
    old?.kill('ended by the test')
    const restarted = () =>
      core.germination.byName.get('lib')?.state === 'live' && instanceOf('lib') !== undefined
    for (let waited = 0; waited < 20_000; waited += 50) {
      if (restarted() && hostKeeper.hostOf(instanceOf('lib')) !== old) break
      await Bun.sleep(50)
    }
    expect(hostKeeper.hostOf(instanceOf('lib'))).not.toBe(old)
    const after = (await ask('/iso lib pid 0'))[0]
    expect(after).toMatch(/^lib pid [0-9a-f-]{36}$/)
    expect(after).not.toBe(before)
    expect(await ask('/inl lib pid 0')).toEqual([after!])
    expect(await ask('/iso lib double 3')).toEqual(['lib double 6'])
  })

  it('ctx.schedule runs a handler in the host, with its data and signal', async () => {
    expect(await ask('/sched')).toEqual(['scheduled soon soon'])
    let ran: string | undefined
    for (let waited = 0; waited < 10_000; waited += 100) {
      ran = (await ask('/ran'))[0]
      if (ran !== 'null') break
      await Bun.sleep(100)
    }
    expect(JSON.parse(ran ?? 'null')).toEqual({ id: 'soon', data: { who: 'keeper' }, aborted: false })
  })

  it('a storage transaction commits, and one that throws rolls back with its error crossing', async () => {
    expect(await ask('/tx')).toEqual(['1 1 rolled back|E_ROLL'])
    expect(await ask('/tx')).toEqual(['2 2 rolled back|E_ROLL'])
  })

  it("a spore's storage migrations ran, in order, in its host", async () => {
    expect(await ask('/mig')).toEqual(['["v1","v2"]'])
  })

  it('an inhibitor asks groupMembers and requireCapability across its host', async () => {
    await core.say('probe the gate')
    const line = core.logs().find((entry) => entry.msg === 'gate probed')
    expect(line?.members).toEqual([{ channel: 'chat', externalId: 'g1-member' }])
    expect(line?.refused).toBe('Error: channel "chat" lacks edits, so it cannot enforce this rule')
  })

  it("a spore's routes answer from its host: the request and response cross whole", async () => {
    const response = await fetch(`${web.url}/spores/lib/hook`, {
      method: 'POST',
      headers: { 'x-test': 'across', 'content-type': 'application/json' },
      body: JSON.stringify({ film: 'Alien' }),
    })
    expect(response.status).toBe(202)
    expect(response.headers.get('x-answer')).toBe('yes')
    expect(await response.json()).toEqual({
      got: { film: 'Alien' },
      header: 'across',
      method: 'POST',
      aborted: false,
    })
  })

  it("a route's signal is aborted in the host when its deadline passes", async () => {
    const slow = await fetch(`${web.url}/spores/lib/slow`)
    expect(slow.status).toBe(504)
    await slow.arrayBuffer()
    let aborted = 0
    for (let waited = 0; aborted === 0 && waited < 5_000; waited += 100) {
      aborted = ((await (await fetch(`${web.url}/spores/lib/aborted`)).json()) as { aborted: number }).aborted
      if (aborted === 0) await Bun.sleep(100)
    }
    expect(aborted).toBe(1)
  })
})
