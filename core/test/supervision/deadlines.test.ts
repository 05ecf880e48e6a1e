import { afterEach, describe, expect, it } from 'bun:test'
import type { Mycelium } from '@mycelo/septum'
import { FILMS } from '../rhizomorph/spores.ts'
import { startTestCore, type TestCore } from '../support/runtime.ts'

// Short deadlines so that a hang is noticed within a test; every other value is the default.
const TIMEOUTS =
  'timeouts: { create: 300, start: 300, connect: 300, listen: 300, stop: 300, inspect: 150, handler: 200, health: 150, send: 150, groupMembers: 150 }\n'

const FOREVER = 'new Promise(() => {})'

const enzyme = (name: string, body: string) => ({
  'spore.yaml': `kind: enzyme\nname: ${name}\nseptum: "^1.0"\ncommands:\n  - { name: ${name}, description: d, code: run }\n`,
  'src/index.ts': body,
})

const inhibitor = (name: string, enforcing: boolean, inspect: string) => ({
  'spore.yaml': `kind: inhibitor\nname: ${name}\nseptum: "^1.0"\nenforcing: ${enforcing}\n`,
  'src/index.ts': `export default { create: () => ({ inspect(message) { ${inspect} } }) }\n`,
})

let core: TestCore | undefined
afterEach(async () => {
  await core?.stop()
  core = undefined
})

const deadlineLines = (c: TestCore) => c.logs().filter((line) => line.msg === 'deadline passed')

describe('a deadline on every lifecycle call', () => {
  it('makes a spore whose import, create(), start() or connect() hangs dormant, naming the step and the time', async () => {
    core = await startTestCore({
      config: TIMEOUTS,
      spores: {
        films: FILMS,
        'slow-import': enzyme(
          'slow-import',
          `await ${FOREVER}\nexport default { create: () => ({ handlers: { run() {} } }) }\n`,
        ),
        'slow-create': enzyme('slow-create', `export default { create: () => ${FOREVER} }\n`),
        'slow-start': {
          'spore.yaml': 'kind: rhiza\nname: slow-start\nseptum: "^1.0"\n',
          'src/index.ts': `export default { create: () => ({ start: () => ${FOREVER}, async stop() {}, async health() { return { state: 'healthy', checkedAt: new Date() } }, api: {} }) }\n`,
        },
        'slow-connect': {
          'spore.yaml': 'kind: hypha\nname: slow-connect\nseptum: "^1.0"\ncapabilities: []\n',
          'src/index.ts': `export default { create: () => ({ connect: () => ${FOREVER}, async listen() {}, async stop() {}, async send() {} }) }\n`,
        },
      },
    })
    const reason = (name: string) => core?.germination.byName.get(name)?.reason
    expect(reason('slow-import')).toBe(
      'module src/index.ts failed to load: importing src/index.ts did not finish within 300 ms',
    )
    expect(reason('slow-create')).toBe('create() failed: create() did not finish within 300 ms')
    expect(reason('slow-start')).toBe('start() did not finish within 300 ms')
    expect(reason('slow-connect')).toBe('connect() did not finish within 300 ms')
    const steps = deadlineLines(core).map((line) => line.spore)
    expect(steps).toEqual(
      expect.arrayContaining(['slow-import', 'slow-create', 'slow-start', 'slow-connect']),
    )
    // The rest of the bot came up and answers.
    expect(await core.ask('/ping')).toEqual(['pong in English'])
  })

  it('stops a spore whose start() finishes after its deadline, and keeps it dormant', async () => {
    core = await startTestCore({
      config: TIMEOUTS,
      spores: {
        films: FILMS,
        late: {
          'spore.yaml': 'kind: rhiza\nname: late\nseptum: "^1.0"\n',
          'src/index.ts': `export default { create: () => ({ start: () => Bun.sleep(500), async stop() { globalThis.lateStopped = true }, async health() { return { state: 'healthy', checkedAt: new Date() } }, api: {} }) }\n`,
        },
      },
    })
    expect(core.germination.byName.get('late')?.state).toBe('dormant')
    await Bun.sleep(500)
    expect((globalThis as { lateStopped?: boolean }).lateStopped).toBe(true)
    expect(core.germination.byName.get('late')?.state).toBe('dormant')
    expect(core.logs().some((line) => line.msg === 'start() finished after its deadline; ignored')).toBe(true)
  })
})

describe('a deadline on every call on the message path', () => {
  it('tells the sender a handler took too long, once, and ignores its late result', async () => {
    core = await startTestCore({
      config: TIMEOUTS,
      spores: {
        films: FILMS,
        stuck: enzyme(
          'stuck',
          'export default { create: () => ({ handlers: { async run(_i, ctx) { await Bun.sleep(400); throw new Error("late failure") } } }) }\n',
        ),
      },
    })
    const answers = await core.ask('/stuck')
    expect(answers).toHaveLength(1)
    expect(answers[0]).toContain('/stuck took too long')
    expect(deadlineLines(core).at(-1)).toMatchObject({ spore: 'stuck', step: 'handler run()', ms: 200 })
    await Bun.sleep(400)
    // The late throw is not answered a second time.
    expect(core.sent.map((s) => s.content.text).filter((t) => t?.includes('/stuck'))).toHaveLength(1)
  })

  it('refuses a message an enforcing inhibitor does not judge in time, and skips an advisory one', async () => {
    core = await startTestCore({
      config: TIMEOUTS,
      spores: {
        films: FILMS,
        wall: inhibitor(
          'wall',
          true,
          `return message.text.includes('slow-wall') ? ${FOREVER} : { allow: true }`,
        ),
        gate: inhibitor(
          'gate',
          false,
          `return message.text.includes('slow-gate') ? ${FOREVER} : { allow: true }`,
        ),
      },
    })
    expect(await core.ask('/ping slow-wall')).toEqual([])
    const refused = core.logs().filter((line) => line.msg === 'message refused at admission')
    expect(String(refused.at(-1)?.reason)).toContain('inspect() did not finish within 150 ms')
    expect(await core.ask('/ping slow-gate')).toEqual(['pong in English'])
    expect(deadlineLines(core).map((line) => line.spore)).toEqual(['wall', 'gate'])
  })

  it('keeps memory bounded under a flood to a stuck inhibitor, says so, and answers everyone', async () => {
    core = await startTestCore({
      config: 'timeouts: { inspect: 60000, stop: 300 }\n',
      spores: {
        films: FILMS,
        gate: inhibitor(
          'gate',
          false,
          `return message.text.includes('stuck') ? ${FOREVER} : { allow: true }`,
        ),
      },
    })
    const flood = Array.from({ length: 2000 }, (_, i) =>
      core!.say('/ping stuck', { from: `flooder-${i % 7}` }),
    )
    // Past the cap the stuck inhibitor is not asked; the advisory one is skipped, so these are answered.
    await Promise.race([Promise.all(flood.slice(64)), Bun.sleep(5000)])
    expect(
      core
        .logs()
        .filter((l) => l.msg === 'an inhibitor has too many inspections still running; judging as failed'),
    ).toHaveLength(1)
    expect(core.sent.length).toBeGreaterThanOrEqual(2000 - 64)
    expect(await core.ask('/ping')).toEqual(['pong in English'])
  })

  it('answers busy past the cap of handlers a stuck enzyme may have running', async () => {
    core = await startTestCore({
      config: 'timeouts: { handler: 60000, stop: 300 }\n',
      spores: {
        films: FILMS,
        stuck: enzyme(
          'stuck',
          `export default { create: () => ({ handlers: { run: () => ${FOREVER} } }) }\n`,
        ),
      },
    })
    for (let i = 0; i < 64; i++) void core.say('/stuck')
    const answers = await core.ask('/stuck')
    expect(answers).toEqual([expect.stringContaining('still working on earlier requests')])
    expect(await core.ask('/ping')).toEqual(['pong in English'])
  })

  it('gives up on a send, and on a health() that does not answer in time', async () => {
    core = await startTestCore({
      config: `${TIMEOUTS}outbox: { sendWithinSeconds: 1 }\n`,
      spores: {
        films: FILMS,
        mute: {
          'spore.yaml': 'kind: hypha\nname: mute\nseptum: "^1.0"\ncapabilities: [group_membership]\n',
          'src/index.ts': `export default { create: () => ({ async connect() {}, async listen() {}, async stop() {}, send: () => ${FOREVER}, listGroupMembers: () => ${FOREVER} }) }\n`,
        },
        sleepy: {
          'spore.yaml': 'kind: rhiza\nname: sleepy\nseptum: "^1.0"\n',
          'src/index.ts': `export default { create: () => ({ async start() {}, async stop() {}, health: () => ${FOREVER}, api: {} }) }\n`,
        },
      },
    })
    const { hyphae } = core.assembly.runtime
    // The caller hears at its send deadline that the message is kept, while the try (its own
    // deadline longer) still runs; then that try gives up and the message waits for the next.
    const retried = async () =>
      core!.logs().find((line) => line.msg === 'outbox: not sent for now; trying again')
    await hyphae.send({ channel: 'mute', conversationId: 'c' }, { text: 'hi' })
    expect(await retried()).toBeUndefined()
    expect(core.assembly.runtime.outbox.waiting('mute')).toBe(1)
    for (let tries = 0; tries < 100 && (await retried()) === undefined; tries++) await Bun.sleep(30)
    expect(String((await retried())?.why)).toContain('send() on mute did not finish within 1000 ms')
    await expect(hyphae.groupMembers('mute', 'g1')).rejects.toThrow(
      'listGroupMembers() on mute did not finish within 150 ms',
    )
    const sleepy = core.germination.byName.get('sleepy')!
    const health = (
      core.assembly.runtime.mycelium({
        ...sleepy,
        manifest: {
          kind: 'enzyme',
          name: 'x',
          septum: '^1.0',
          commands: [],
          requires: [{ rhiza: 'mycelium', scopes: ['health.read'] }],
        } as never,
      }) as Mycelium<'health.read'>
    ).health
    const states = await health()
    const expiries = deadlineLines(core).map((line) => [line.spore, line.step])
    expect(expiries).toEqual(
      expect.arrayContaining([
        ['mute', 'send() on mute'],
        ['sleepy', 'health()'],
      ]),
    )
    expect(states.find((h) => h.name === 'sleepy')).toMatchObject({
      state: 'unreachable',
      detail: 'health() did not finish within 150 ms',
    })
  })
})

describe('admission is ready before any message is dispatched', () => {
  it('holds what a hypha emits while connecting until the inhibitors have started', async () => {
    core = await startTestCore({
      spores: {
        films: FILMS,
        eager: {
          'spore.yaml': 'kind: hypha\nname: eager\nseptum: "^1.0"\ncapabilities: []\n',
          'src/index.ts': `
const sent = []
globalThis.eagerSent = sent
const message = (from) => ({ channel: 'eager', conversationId: 'c-' + from, messageId: from, sender: { channel: 'eager', externalId: from }, text: '/ping', attachments: [], raw: null, receivedAt: new Date() })
export default { create: () => ({
  async connect(ctx) { void ctx.emit(message('banned')); void ctx.emit(message('friend')) },
  async listen() {}, async stop() {},
  async send(conversationId, content) { sent.push(conversationId + ': ' + content.text) },
}) }
`,
        },
        wall: {
          'spore.yaml': 'kind: inhibitor\nname: wall\nseptum: "^1.0"\nenforcing: true\n',
          // Its ban list only exists once start() has run: judged earlier, everyone would pass.
          'src/index.ts': `
let banned = new Set()
export default { create: () => ({
  async start() { await Bun.sleep(50); banned = new Set(['banned']) },
  inspect(message) { return banned.has(message.sender.externalId) ? { allow: false, reason: 'banned' } : { allow: true } },
}) }
`,
        },
      },
    })
    await Bun.sleep(50)
    // The banned sender was judged by a started wall; the friend's message went through the path.
    const sent = (globalThis as { eagerSent?: string[] }).eagerSent ?? []
    expect(sent.filter((line) => line.startsWith('c-banned'))).toEqual([])
    expect(sent.filter((line) => line.startsWith('c-friend'))).toHaveLength(1)
  })
})
