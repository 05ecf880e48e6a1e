// What signal-cli refuses, as the real daemon words it, and what the hypha makes of each refusal.
import { afterEach, describe, expect, it } from 'bun:test'
import { createSignalHypha, type SignalHypha } from '../src/index.ts'
import { eventually, type RecordingContext, recordingContext } from './fake/context.ts'
import { FakeDaemon } from './fake/daemon.ts'
import { ALICE, BOB, BOT_NUMBER } from './fake/frames.ts'

let hypha: SignalHypha | undefined
const cleanups: (() => void)[] = []
afterEach(async () => {
  await hypha?.stop()
  hypha = undefined
  for (const cleanup of cleanups.splice(0)) cleanup()
})

function daemonRecording(account = BOT_NUMBER): { daemon: FakeDaemon; recording: RecordingContext } {
  const daemon = FakeDaemon.start()
  cleanups.push(() => daemon.close())
  return {
    daemon,
    recording: recordingContext({ account, transport: 'jsonrpc', address: daemon.socketPath }),
  }
}

async function connected(recording: RecordingContext): Promise<SignalHypha> {
  hypha = createSignalHypha({ backoff: { initialMs: 10, maxMs: 50 }, rateLimitWaitMs: 60_000 })
  await hypha.connect(recording.context())
  const live = hypha
  await eventually(async () => (await live.health()).state === 'healthy', 'the hypha to connect')
  return live
}

const messagesTo = (daemon: FakeDaemon, to: string) =>
  daemon.requests
    .where((request) => request.method === 'send' && (request.params.recipient as string[])[0] === to)
    .map((request) => String(request.params.message))

describe('an account the daemon does not have', () => {
  it('fails connect() with the daemon’s own words and what to do, and logs it', async () => {
    const { daemon, recording } = daemonRecording('+15550199999')
    hypha = createSignalHypha({ backoff: { initialMs: 10, maxMs: 50 } })
    await expect(hypha.connect(recording.context())).rejects.toThrow(
      'signal-cli does not have the account +15550199999 ("Specified account does not exist"). To fix it: ' +
        'register or link that account in signal-cli (signal-cli -a +15550199999 register, or signal-cli ' +
        'link), or correct the account setting of the signal spore.',
    )
    expect(daemon.requests.all.map(({ method, params }) => [method, params.account])).toEqual([
      ['listGroups', '+15550199999'],
    ])
    expect(recording.logs.where((line) => line.level === 'error').map((line) => line.message)).toEqual([
      expect.stringContaining('signal-cli does not have the account +15550199999'),
    ])
    const health = await hypha.health()
    expect(health.state).toBe('unreachable')
    expect(health.detail).toContain('signal-cli does not have the account +15550199999')
  })
})

describe('a send signal-cli refuses, with data.response.results', () => {
  it('names the recipient, the failure type and what to do', async () => {
    const { daemon, recording } = daemonRecording()
    const live = await connected(recording)
    daemon.refuseRecipient(ALICE.uuid, { type: 'UNREGISTERED_FAILURE' })
    await expect(live.send(ALICE.uuid, { text: 'hi' })).rejects.toThrow(
      `signal-cli refused send: Failed to send message (code -1) — ${ALICE.uuid}: UNREGISTERED_FAILURE ` +
        '(not registered on Signal: check the number, or they have left Signal)',
    )
  })

  it('matches answers that come back out of order to their own requests', async () => {
    const { daemon, recording } = daemonRecording()
    const live = await connected(recording)
    daemon.refuseRecipient(ALICE.uuid, { type: 'IDENTITY_FAILURE' })
    daemon.answerNextOutOfOrder(2)
    const [toAlice, toBob] = await Promise.allSettled([
      live.send(ALICE.uuid, { text: 'hi Alice' }),
      live.send(BOB.uuid, { text: 'hi Bob' }),
    ])
    expect(toBob).toEqual({ status: 'fulfilled', value: undefined })
    expect(toAlice.status).toBe('rejected')
    expect(String((toAlice as PromiseRejectedResult).reason)).toContain(
      `${ALICE.uuid}: IDENTITY_FAILURE (their safety number changed: trust it with signal-cli trust ${ALICE.uuid}`,
    )
  })
})

describe('a send Signal refuses for its rate limit', () => {
  it('holds them, says how many wait, shows it in health, and sends them in order once it passes', async () => {
    const { daemon, recording } = daemonRecording()
    hypha = createSignalHypha({ backoff: { initialMs: 10, maxMs: 50 }, rateLimitWaitMs: 30 })
    await hypha.connect(recording.context())
    const live = hypha
    await eventually(async () => (await live.health()).state === 'healthy', 'the hypha to connect')
    daemon.refuseRecipient(ALICE.uuid, { type: 'RATE_LIMIT_FAILURE' })
    const sends = [live.send(ALICE.uuid, { text: 'first' }), live.send(ALICE.uuid, { text: 'second' })]
    await eventually(
      () =>
        recording.logs.where((line) => line.message.includes('messages wait to be sent in order')).length > 0,
      'the hold to be logged',
    )
    await live.send(BOB.uuid, { text: 'meanwhile' })
    const waiting = recording.logs
      .where((line) => line.message.includes('messages wait to be sent in order'))
      .map((line) => line.meta?.waiting)
    expect(waiting).toEqual([2])
    // Another conversation is not held up by Alice's.
    expect(messagesTo(daemon, BOB.uuid)).toEqual(['meanwhile'])
    const health = await live.health()
    expect(health.state).toBe('degraded')
    expect(health.detail).toContain('Signal rate-limited the account: 2 message(s) wait to be sent in order')
    daemon.deliverTo(ALICE.uuid)
    await Promise.all(sends)
    // However often the first was refused meanwhile, the second went once, after it.
    const toAlice = messagesTo(daemon, ALICE.uuid)
    expect(toAlice.slice(-2)).toEqual(['first', 'second'])
    expect(toAlice.filter((text) => text === 'second')).toHaveLength(1)
    await eventually(async () => (await live.health()).state === 'healthy', 'the queue to empty')
  })

  it('refuses a message past the bound with a reason instead of holding it forever', async () => {
    const { daemon, recording } = daemonRecording()
    const live = await connected(recording)
    daemon.refuseRecipient(ALICE.uuid, { type: 'RATE_LIMIT_FAILURE', retryAfterSeconds: 60 })
    // Held until the hypha stops, when each rejects as not sent (the core would keep them).
    const held = Array.from({ length: 1_000 }, (_, index) =>
      live.send(ALICE.uuid, { text: `message ${index}` }).catch((error: unknown) => error),
    )
    await expect(live.send(ALICE.uuid, { text: 'one too many' })).rejects.toThrow(
      "signal: not sent: 1000 messages already wait for Signal's rate limit to pass",
    )
    await eventually(async () => (await live.health()).state === 'degraded', 'the hold to show')
    expect((await live.health()).detail).toContain('1000 message(s) wait to be sent in order')
    await live.stop()
    expect((await Promise.all(held)).every((error) => String(error).includes('was not sent'))).toBe(true)
  })
})

describe('an outgoing attachment whose content type carries parameters', () => {
  it('is sent with the bare media type, so signal-cli keeps its file name', async () => {
    const { daemon, recording } = daemonRecording()
    const live = await connected(recording)
    const data = new TextEncoder().encode('hello')
    await live.send(ALICE.uuid, {
      attachments: [{ data, name: 'notes.txt', contentType: 'text/plain; charset=utf-8' }],
    })
    expect(daemon.requests.where((request) => request.method === 'send')[0]?.params.attachments).toEqual([
      `data:text/plain;filename=notes.txt;base64,${Buffer.from(data).toString('base64')}`,
    ])
  })
})
