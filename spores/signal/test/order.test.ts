// Sends made all at once to one conversation, through Signal's rate limit: every one sent, once,
// in the order they were made, and /health counting what really waits the whole time.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { createSignalHypha, type SignalHypha } from '../src/index.ts'
import { eventually, recordingContext } from './fake/context.ts'
import { FakeDaemon } from './fake/daemon.ts'
import { ALICE } from './fake/frames.ts'

describe('a burst of sends to one conversation under a rate limit', () => {
  let daemon: FakeDaemon
  let hypha: SignalHypha

  beforeAll(async () => {
    daemon = FakeDaemon.start()
    const recording = recordingContext({
      account: daemon.account,
      transport: 'jsonrpc',
      address: daemon.socketPath,
    })
    hypha = createSignalHypha({ backoff: { initialMs: 10, maxMs: 50 }, rateLimitWaitMs: 40 })
    await hypha.connect(recording.context())
    await hypha.listen()
    const live = hypha
    await eventually(async () => (await live.health()).state === 'healthy', 'the hypha to connect')
  })

  afterAll(async () => {
    await hypha.stop()
    daemon.close()
  })

  const taken = (tag: string) =>
    daemon.requests
      .where((request) => request.method === 'send' && String(request.params.message).startsWith(tag))
      .map((request) => String(request.params.message))

  for (const burst of [50, 200]) {
    it(`sends ${burst} sends made at once in order, none twice, with the count right throughout`, async () => {
      const tag = `burst${burst}`
      daemon.limitRate({ sends: 10, ms: 40 })
      const counts: { waiting: number; tried: number }[] = []
      let done = false
      const sampling = (async () => {
        while (!done) {
          const detail = (await hypha.health()).detail ?? ''
          const waiting = /(\d+) message\(s\) wait/.exec(detail)?.[1]
          if (waiting !== undefined)
            counts.push({ waiting: Number(waiting), tried: new Set(taken(tag)).size })
          await Bun.sleep(10)
        }
      })()
      const texts = Array.from({ length: burst }, (_, index) => `${tag} #${index}`)
      await Promise.all(texts.map((text) => hypha.send(ALICE.uuid, { text })))
      done = true
      await sampling
      daemon.limitRate(undefined)
      const accepted = daemon.requests.where(
        (request) => request.method === 'send' && String(request.params.message).startsWith(tag),
      )
      // Each refused try is the same message again; the ones signal-cli took, in order, are the burst.
      const tries = accepted.map((request) => String(request.params.message))
      const firstTries = tries.filter((text, index) => tries.indexOf(text) === index)
      expect(firstTries).toEqual(texts)
      const delivered = daemon.delivered
        .where((request) => String(request.params.message).startsWith(tag))
        .map((request) => String(request.params.message))
      expect(delivered).toEqual(texts)
      expect(tries.length).toBeGreaterThan(burst)
      expect(counts.length).toBeGreaterThan(0)
      // While held, every message not yet tried waits, plus those tried and refused: never fewer.
      for (const { waiting, tried } of counts) expect(waiting + tried).toBeGreaterThanOrEqual(burst)
      for (const { waiting } of counts) expect(waiting).toBeLessThanOrEqual(burst)
      expect((await hypha.health()).state).toBe('healthy')
    }, 30_000)
  }
})
