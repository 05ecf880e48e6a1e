// Discord's connect always ends: a gateway that takes the TCP connection and never answers the
// WebSocket handshake, a READY that never comes, a REST API that never answers. connect() settles
// within its deadline (as unavailable, retried with backoff) and the hypha is live once Discord is.
import { afterEach, describe, expect, it } from 'bun:test'
import type { TCPSocketListener } from 'bun'
import { DiscordHypha } from '../src/hypha.ts'
import { type FakeDiscord, startFakeDiscord } from './fake/index.ts'
import { Recorder } from './fake/recorder.ts'
import { hyphaContext, type LogLine } from './harness.ts'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function eventually(probe: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`)
    await Bun.sleep(20)
  }
}

/** A fake Discord and a hypha with short deadlines; connect() is awaited by the caller. */
function rig(prepare: (fake: FakeDiscord) => void, deadlines = { connectMs: 600, restMs: 300 }) {
  const fake = startFakeDiscord({ heartbeatInterval: 500 })
  prepare(fake)
  const hypha = new DiscordHypha({
    retry: { initialMs: 50, maxMs: 200 },
    deadlines,
  })
  const logs = new Recorder<LogLine>()
  cleanups.push(() => fake.stop())
  cleanups.push(() => hypha.stop())
  const ctx = hyphaContext({ token: fake.token, apiBaseUrl: fake.restApi }, { emitted: new Recorder(), logs })
  return { fake, hypha, logs, connecting: hypha.connect(ctx) }
}

describe('a Discord connect that would never end', () => {
  it('settles against a gateway that accepts TCP and never answers the handshake, and recovers once it does', async () => {
    const silent: TCPSocketListener = Bun.listen({
      hostname: '127.0.0.1',
      port: 0,
      socket: { data() {}, open() {} },
    })
    cleanups.push(() => silent.stop(true))
    const { fake, hypha, connecting } = rig((made) => {
      made.rest.gatewayUrl = `ws://127.0.0.1:${silent.port}`
    })
    await connecting
    await eventually(
      async () =>
        (await hypha.health()).detail?.includes('did not open the gateway connection within 0.6 s') === true,
      'the timeout',
    )
    expect((await hypha.health()).state).toBe('unreachable')
    fake.rest.gatewayUrl = undefined
    await eventually(async () => (await hypha.health()).state === 'healthy', 'the hypha to connect')
  })

  it('settles when READY never comes, and recovers once it does', async () => {
    const { fake, hypha, connecting } = rig((made) => {
      made.gateway.withholdReady = true
    })
    await connecting
    await eventually(
      async () =>
        (await hypha.health()).detail?.includes('took the login but was not ready within 0.6 s') === true,
      'the timeout',
    )
    fake.gateway.withholdReady = false
    await eventually(async () => (await hypha.health()).state === 'healthy', 'the hypha to connect')
  })

  it('settles when the REST API never answers, treats it as unavailable, and recovers once it answers', async () => {
    // Each try of the call is aborted after 200 ms, well before the whole connect's deadline.
    const { fake, hypha, connecting, logs } = rig(
      (made) => {
        made.rest.holdRoute('GET', '/gateway/bot')
      },
      { connectMs: 10_000, restMs: 200 },
    )
    await connecting
    await eventually(
      async () => (await hypha.health()).detail?.includes('timed out') === true,
      'the REST timeout',
    )
    expect(
      logs.entries.some((line) => line.message === 'discord: Discord is unavailable; trying again'),
    ).toBe(true)
    fake.rest.restoreRoute('GET', '/gateway/bot')
    await eventually(async () => (await hypha.health()).state === 'healthy', 'the hypha to connect')
  })
})
