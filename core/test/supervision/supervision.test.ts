// The supervised state of channels, through the real core: a channel that reaches nothing reads the
// same on /plugins, /health and the report, is retried or polled back, and says so once in the log.
import { afterEach, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { startFakeDiscord } from '../../../spores/discord/test/fake/index.ts'
import { eventually, FakeDaemon } from '../../../spores/signal/test/fake/index.ts'
import { actingAs } from '../../mycelium/actor.ts'
import { healthRead } from '../../mycelium/health.ts'
import { pluginsRead } from '../../mycelium/plugins.ts'
import type { CoreRuntime } from '../../rhizomorph/runtime.ts'
import { type CoreWith, startCoreWith } from '../support/boot-core.ts'

const SPORES = join(import.meta.dir, '..', '..', '..', 'spores')

let core: CoreWith | undefined
let daemon: FakeDaemon | undefined
afterEach(async () => {
  await core?.stop()
  daemon?.close()
  core = undefined
  daemon = undefined
})

/** What /plugins, /health and the report each say of one spore. */
async function surfaces(runtime: CoreRuntime, name: string) {
  const listed = pluginsRead(runtime)
    .listPlugins()
    .find((plugin) => plugin.name === name)
  const health = (await healthRead(runtime).health()).find((report) => report.name === name)
  const line = core!.running.report().find((entry) => entry.name === name)
  return { listed, health, line }
}

/** A reason without the figures that move between two reads: the attempt under way, the seconds left. */
const moving = (reason: string | undefined) =>
  (reason ?? '').replace(/next in \d+ s/g, 'next in # s').replace(/attempt \d+/g, 'attempt #')

const backLines = (name: string) =>
  core!.logs().filter((line) => line.msg === 'back: connected again' && line.spore === name)

/** A channel whose connect() is refused while globalThis.flakyDown is set. */
const FLAKY = {
  'spore.yaml': 'kind: hypha\nname: flaky\nseptum: "^1.0"\ncapabilities: []\n',
  'src/index.ts': `export default { create: () => ({
  async connect() { if (globalThis.flakyDown) throw new Error('connection refused') },
  async listen() {}, async stop() {}, async send() {},
}) }
`,
}

describe('a channel whose first connection is refused', () => {
  it('reads reconnecting everywhere, is retried with backoff, and is live once the far end is back', async () => {
    const scope = globalThis as { flakyDown?: boolean }
    scope.flakyDown = true
    core = await startCoreWith({ spores: { flaky: FLAKY } })
    const runtime = core.running.assembly!.runtime
    const down = await surfaces(runtime, 'flaky')
    expect(down.listed?.state).toBe('dormant')
    expect(down.listed?.reason).toMatch(
      /^reconnecting \(attempt 1, next in \d+ s\): connect\(\) failed: connection refused$/,
    )
    expect(down.health?.state).toBe('unreachable')
    expect(moving(down.health?.detail)).toBe(moving(down.listed?.reason))
    expect(down.line?.state).toBe('dormant')
    expect(moving(down.line?.reason)).toBe(moving(down.listed?.reason))
    scope.flakyDown = false
    await eventually(() => runtime.supervisor.stateOf('flaky')?.state === 'live', 'flaky back', 10_000)
    const up = await surfaces(runtime, 'flaky')
    expect(up.listed?.state).toBe('live')
    expect(up.line?.state).toBe('live')
    expect(backLines('flaky')).toHaveLength(1)
  })
})

describe('signal while signal-cli is not there', () => {
  it('is reconnecting on /plugins, /health and the report alike, never live; live on all once it is up', async () => {
    const fake = FakeDaemon.start()
    daemon = fake
    fake.goDown()
    core = await startCoreWith({
      sporeFolders: [join(SPORES, 'signal')],
      settings: { signal: { account: fake.account, transport: 'jsonrpc', address: fake.socketPath } },
    })
    const runtime = core.running.assembly!.runtime
    await runtime.supervisor.poll()
    const down = await surfaces(runtime, 'signal')
    expect(down.health?.state).toBe('unreachable')
    expect(down.listed?.state).toBe('dormant')
    // The channel says at once that it keeps trying, and when next: the supervisor reads it so.
    expect(down.listed?.reason).toMatch(
      /^reconnecting \(attempt \d+, next in \d+ s\): cannot reach signal-cli/,
    )
    expect(down.line?.state).toBe('dormant')
    expect(moving(down.line?.reason)).toBe(moving(down.listed?.reason))
    fake.comeBack()
    await eventually(
      async () => {
        await runtime.supervisor.poll()
        return runtime.supervisor.stateOf('signal')?.state === 'live'
      },
      'signal back',
      10_000,
    )
    const up = await surfaces(runtime, 'signal')
    expect(up.listed?.state).toBe('live')
    expect(up.health?.state).toBe('healthy')
    expect(up.line?.state).toBe('live')
    expect(backLines('signal')).toHaveLength(1)
  })
})

describe('a flapping channel', () => {
  it('does not flood the log: the first loss and its return, then the changes saved are counted', async () => {
    core = await startCoreWith({ spores: { flaky: FLAKY } })
    const { supervisor } = core.running.assembly!.runtime
    for (let flap = 0; flap < 10; flap++) {
      supervisor.record('flaky', { state: 'unreachable', detail: 'gone' })
      supervisor.record('flaky', { state: 'healthy' })
    }
    const lines = core
      .logs()
      .filter((line) => line.spore === 'flaky' && /^(back|connection lost)/.test(String(line.msg)))
    expect(lines.map((line) => line.msg)).toEqual(['connection lost', 'back: connected again'])
  })
})

describe('discord whose first connection Discord refuses', () => {
  it('is retried with backoff, reads reconnecting everywhere meanwhile, and is live once Discord lets it in', async () => {
    const fake = startFakeDiscord({ heartbeatInterval: 500, portalIntents: { messageContent: false } })
    try {
      core = await startCoreWith({
        sporeFolders: [join(SPORES, 'discord')],
        settings: { discord: { token: fake.token, apiBaseUrl: fake.restApi } },
      })
      const runtime = core.running.assembly!.runtime
      const down = await surfaces(runtime, 'discord')
      expect(down.listed?.state).toBe('dormant')
      expect(down.listed?.reason).toStartWith('reconnecting (attempt 1, next in ')
      expect(down.listed?.reason).toContain('Message Content Intent')
      expect(down.health?.state).toBe('unreachable')
      expect(moving(down.health?.detail)).toBe(moving(down.listed?.reason))
      expect(down.line?.state).toBe('dormant')
      expect(moving(down.line?.reason)).toBe(moving(down.listed?.reason))
      // The operator switches the intent on in the portal: nothing to do at the bot.
      ;(fake.world.portalIntents as { messageContent: boolean }).messageContent = true
      await eventually(() => runtime.supervisor.stateOf('discord')?.state === 'live', 'discord back', 10_000)
      const up = await surfaces(runtime, 'discord')
      expect(up.listed?.state).toBe('live')
      expect(up.line?.state).toBe('live')
      expect(backLines('discord')).toHaveLength(1)
    } finally {
      await core?.stop()
      core = undefined
      await fake.stop()
    }
  })
})

describe('a rhiza whose health() names no known state', () => {
  it('reads unreachable on /plugins, /health and the report, never live', async () => {
    core = await startCoreWith({
      spores: {
        vague: {
          'spore.yaml': 'kind: rhiza\nname: vague\nseptum: "^1.0"\n',
          'src/index.ts':
            "export default { create: () => ({ async start() {}, async stop() {}, async health() { return { state: 'fine', checkedAt: new Date() } }, api: {} }) }\n",
        },
      },
    })
    const { runtime } = core.running.assembly
    await runtime.supervisor.poll()
    const { listed, health, line } = await surfaces(runtime, 'vague')
    expect(listed?.state).not.toBe('live')
    expect(listed?.reason).toContain('health() gave no known state')
    expect(health).toMatchObject({ state: 'unreachable', detail: 'health() gave no known state' })
    expect(line?.state).not.toBe('live')
  })
})

/** A channel whose connect() waits for the test, and which says it lost its connection when told. */
const SLOW = {
  'spore.yaml': 'kind: hypha\nname: slow\nseptum: "^1.0"\ncapabilities: []\n',
  'src/index.ts': `export default { create: () => ({
  async connect(ctx) {
    globalThis.slowConnects = (globalThis.slowConnects ?? 0) + 1
    globalThis.slowContext = ctx
    await globalThis.slowGate
  },
  async listen() {}, async stop() {}, async send() {},
}) }
`,
}

interface SlowScope {
  slowGate?: Promise<void>
  slowConnects?: number
  slowContext?: { connection?: { up(): void; lost(reason: string, retry?: object): void } }
}

describe('a channel whose connect() is under way', () => {
  it('reads connecting on every surface until it has connected, then live', async () => {
    const scope = globalThis as SlowScope
    scope.slowGate = Promise.resolve()
    core = await startCoreWith({ spores: { slow: SLOW } })
    const runtime = core.running.assembly!.runtime
    let open: () => void = () => undefined
    scope.slowGate = new Promise<void>((resolve) => {
      open = resolve
    })
    const reload = runtime.lifecycle.restart('slow', { fresh: true })
    await eventually(() => runtime.supervisor.stateOf('slow')?.state === 'connecting', 'connecting')
    const during = await surfaces(runtime, 'slow')
    expect(during.listed).toMatchObject({ state: 'dormant', reason: 'connecting' })
    expect(during.line).toMatchObject({ state: 'dormant', reason: 'connecting' })
    open()
    await reload
    expect(runtime.supervisor.stateOf('slow')?.state).toBe('live')
    expect((await surfaces(runtime, 'slow')).listed?.state).toBe('live')
    // Connecting is on its way, not lost: nothing was said in the log.
    expect(core.logs().filter((line) => line.spore === 'slow' && line.msg === 'connection lost')).toEqual([])
  })
})

describe('a channel that says it lost its connection', () => {
  it('and leaves the retry to the core is started again with backoff, and is live once it connects', async () => {
    const scope = globalThis as SlowScope
    scope.slowGate = Promise.resolve()
    core = await startCoreWith({
      spores: { slow: SLOW },
      config: 'supervision: { retryFirst: 50, retryMax: 100 }',
    })
    const runtime = core.running.assembly!.runtime
    const returns: string[] = []
    runtime.supervisor.watchReturns((name) => returns.push(name))
    const before = scope.slowConnects ?? 0
    scope.slowContext?.connection?.lost('the far end hung up')
    const lost = runtime.supervisor.stateOf('slow')
    expect(lost).toMatchObject({ state: 'reconnecting', attempt: 1, lastError: 'the far end hung up' })
    expect(runtime.supervisor.notLive('slow')).toMatch(
      /^reconnecting \(attempt 1, next in \d+ s\): the far end hung up$/,
    )
    await eventually(() => (scope.slowConnects ?? 0) > before, 'connect() called again')
    await eventually(() => runtime.supervisor.stateOf('slow')?.state === 'live', 'slow back')
    expect(
      core.logs().filter((line) => line.spore === 'slow' && line.msg === 'connection lost'),
    ).toHaveLength(1)
    // What /metrics counts as mycelo_reconnects_total.
    expect(returns).toEqual(['slow'])
  })

  it('and retries by itself reads as it says, in the reader’s language; a former self is not heard', async () => {
    const scope = globalThis as SlowScope
    scope.slowGate = Promise.resolve()
    core = await startCoreWith({ spores: { slow: SLOW } })
    const runtime = core.running.assembly!.runtime
    const former = scope.slowContext
    await runtime.lifecycle.restart('slow', { fresh: true })
    former?.connection?.lost('an old socket closed', { attempt: 3, inMs: 2_000 })
    expect(runtime.supervisor.stateOf('slow')?.state).toBe('live')
    scope.slowContext?.connection?.lost('the socket closed', { attempt: 2, inMs: 4_000 })
    expect(runtime.supervisor.notLive('slow')).toMatch(
      /^reconnecting \(attempt 2, next in [34] s\): the socket closed$/,
    )
    const french = actingAs(
      { kind: 'principal', principalId: 'p', channel: 'chat', spore: 'admin', locale: 'fr' },
      () => runtime.supervisor.notLive('slow'),
    )
    expect(french).toMatch(/^reconnexion \(tentative 2, prochaine dans [34] s\) : the socket closed$/)
    // A poll that finds it merely degraded does not call it live while it finds its way back.
    runtime.supervisor.record('slow', { state: 'degraded', detail: 'reconnecting' })
    expect(runtime.supervisor.stateOf('slow')?.state).toBe('reconnecting')
    scope.slowContext?.connection?.up()
    expect(runtime.supervisor.stateOf('slow')?.state).toBe('live')
  })
})
