import { afterEach, describe, expect, it } from 'bun:test'
import { createSignalHypha, type SignalHypha } from '../src/index.ts'
import { eventually, recordingContext } from './fake/context.ts'
import { ALICE, BOT_NUMBER, directMessage } from './fake/frames.ts'
import { type FakePeer, PEER_KINDS } from './fake/peers.ts'
import { FakeRestApi } from './fake/rest-api.ts'

let peer: FakePeer | undefined
let hypha: SignalHypha | undefined
const cleanups: (() => void)[] = []
afterEach(async () => {
  await hypha?.stop()
  peer?.close()
  for (const cleanup of cleanups.splice(0)) cleanup()
})

const state = async () => (await hypha!.health()).state

for (const kind of PEER_KINDS) {
  describe(`a fake ${kind.label} that goes away`, () => {
    it('is reported degraded, refuses sends clearly, and is reconnected to', async () => {
      const fake = kind.start()
      peer = fake
      const { context, emitted, logs } = recordingContext(fake.config)
      hypha = createSignalHypha({ backoff: { initialMs: 10, maxMs: 40 } })
      await hypha.connect(context())
      await hypha.listen()
      await eventually(() => fake.connections() === 1, 'the first connection')
      const healthy = await hypha.health()
      expect(healthy.state).toBe('healthy')
      expect(healthy.detail).toBe(`connected to signal-cli at ${fake.config.address}`)
      expect(healthy.checkedAt).toBeInstanceOf(Date)

      fake.goDown()
      await eventually(async () => (await state()) === 'degraded', 'the hypha to notice')
      expect((await hypha.health()).detail).toStartWith(
        `reconnecting to signal-cli at ${fake.config.address}`,
      )
      await expect(hypha.send(ALICE.uuid, { text: 'into the gap' })).rejects.toThrow(
        `signal-cli is not connected (reconnecting to ${fake.config.address})`,
      )
      expect(logs.where((line) => line.message === 'signal-cli went away; reconnecting')).toHaveLength(1)

      fake.comeBack()
      await eventually(async () => (await state()) === 'healthy', 'the hypha to reconnect')
      await eventually(() => fake.connections() === 1, 'the new connection')
      expect(logs.where((line) => line.message === 'reconnected to signal-cli')).toHaveLength(1)
      fake.push(directMessage({ text: 'are you back?' }))
      const heard = await emitted.next(() => true, 'the message after the reconnect')
      expect(heard.text).toBe('are you back?')
      await hypha.send(ALICE.uuid, { text: 'I am' })
      expect(fake.sent()).toEqual([{ to: ALICE.uuid, text: 'I am', attachments: [] }])
    })
  })
}

describe('a signal-cli that is not there yet', () => {
  it('does not fail connect(), reports unreachable, refuses sends, and connects once it is up', async () => {
    const fake = PEER_KINDS[0]!.start()
    peer = fake
    fake.goDown()
    const { context, logs } = recordingContext(fake.config)
    hypha = createSignalHypha({ backoff: { initialMs: 10, maxMs: 40 } })
    await hypha.connect(context())
    const health = await hypha.health()
    expect(health.state).toBe('unreachable')
    expect(health.detail).toStartWith(`cannot reach signal-cli at ${fake.config.address} (attempt 1: `)
    await expect(hypha.send(ALICE.uuid, { text: 'hi' })).rejects.toThrow(
      `signal-cli is not connected (reconnecting to ${fake.config.address})`,
    )
    expect(logs.where((line) => line.message === 'cannot reach signal-cli; retrying').length).toBeGreaterThan(
      0,
    )
    fake.comeBack()
    await eventually(async () => (await state()) === 'healthy', 'the first connection')
  })

  it('stays unreachable when the REST API refuses the credentials of the receive websocket', async () => {
    const api = FakeRestApi.start({ token: 'right' })
    cleanups.push(() => api.close())
    const { context } = recordingContext({
      account: BOT_NUMBER,
      transport: 'rest',
      address: api.url,
      token: 'wrong',
    })
    hypha = createSignalHypha({ backoff: { initialMs: 10, maxMs: 40 } })
    await hypha.connect(context())
    const health = await hypha.health()
    expect(health.state).toBe('unreachable')
    expect(health.detail).toContain(
      'the API refused the credentials (HTTP 401); check token, username and password',
    )
  })

  it('says so when the REST container is not in json-rpc mode', async () => {
    const api = FakeRestApi.start({ mode: 'normal' })
    cleanups.push(() => api.close())
    const { context } = recordingContext({ account: BOT_NUMBER, transport: 'rest', address: api.url })
    hypha = createSignalHypha({ backoff: { initialMs: 10, maxMs: 40 } })
    await hypha.connect(context())
    const health = await hypha.health()
    expect(health.state).toBe('unreachable')
    expect(health.detail).toContain(
      'the container runs in normal mode; start it with MODE=json-rpc to receive messages',
    )
  })

  it('gives up on a receive websocket that never opens, and says so', async () => {
    const silent = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Promise<Response>(() => {}) })
    cleanups.push(() => void silent.stop(true))
    const config = { account: BOT_NUMBER, transport: 'rest' as const, address: silent.url.href }
    hypha = createSignalHypha({ backoff: { initialMs: 10, maxMs: 40 }, requestTimeoutMs: 50 })
    await hypha.connect(recordingContext(config).context())
    const health = await hypha.health()
    expect(health.state).toBe('unreachable')
    expect(health.detail).toContain('the receive websocket did not open within 50 ms')
  })

  it('names the missing socket and the refused TCP port', async () => {
    const unix = PEER_KINDS[0]!.start()
    const tcp = PEER_KINDS[1]!.start()
    cleanups.push(
      () => unix.close(),
      () => tcp.close(),
    )
    unix.goDown()
    tcp.goDown()
    const details: string[] = []
    for (const fake of [unix, tcp]) {
      const probe = createSignalHypha({ backoff: { initialMs: 10, maxMs: 40 } })
      await probe.connect(recordingContext(fake.config).context())
      details.push((await probe.health()).detail ?? '')
      await probe.stop()
    }
    expect(details[0]).toContain('(ENOENT): no socket at that path; is `signal-cli daemon --socket` running?')
    expect(details[1]).toContain(
      '(ECONNREFUSED): nothing listens there; is `signal-cli daemon --tcp` running?',
    )
  })
})

describe('a stopped hypha', () => {
  it('reports unreachable and refuses sends, saying it is stopped', async () => {
    const fake = PEER_KINDS[2]!.start()
    peer = fake
    hypha = createSignalHypha({ backoff: { initialMs: 10, maxMs: 40 } })
    await hypha.connect(recordingContext(fake.config).context())
    await hypha.stop()
    expect(await hypha.health()).toMatchObject({ state: 'unreachable', detail: 'stopped' })
    await expect(hypha.send(ALICE.uuid, { text: 'hi' })).rejects.toThrow(
      'signal-cli is not connected (the signal hypha is stopped)',
    )
    await eventually(() => fake.connections() === 0, 'the websocket to close')
  })

  it('refuses a send before connect() was ever called', async () => {
    const fresh = createSignalHypha()
    await expect(fresh.send(ALICE.uuid, { text: 'hi' })).rejects.toThrow(
      'the signal hypha is not connected: call connect() first',
    )
    expect(await fresh.health()).toMatchObject({ state: 'unreachable', detail: 'not connected yet' })
  })
})
