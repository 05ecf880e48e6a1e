// Sends made all at once to one conversation, through Discord's rate limit: every one posted, once,
// in the order they were made, and /health counting what really waits the whole time.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type { RecordedRequest } from './fake/index.ts'
import { connectedRig, type Rig } from './harness.ts'

describe('a burst of sends to one conversation under a rate limit', () => {
  let rig: Rig

  beforeAll(async () => {
    rig = await connectedRig()
  })

  afterAll(async () => {
    await rig.stop()
  })

  for (const burst of [50, 200]) {
    it(`posts ${burst} sends made at once in order, none twice, with the count right throughout`, async () => {
      const { fake, hypha } = rig
      const channel = fake.world.textChannelId
      const tag = `burst${burst}`
      const ours = (request: RecordedRequest) =>
        request.method === 'POST' && String((request.body as { content?: string })?.content).startsWith(tag)
      fake.rest.limitRate({ messages: 10, seconds: 0.1 })
      const counts: { waiting: number; created: number }[] = []
      let done = false
      const sampling = (async () => {
        while (!done) {
          const detail = (await hypha.health()).detail ?? ''
          const waiting = /(\d+) message\(s\) wait/.exec(detail)?.[1]
          const created = fake.rest.created.entries.filter((message) =>
            message.content.startsWith(tag),
          ).length
          if (waiting !== undefined) counts.push({ waiting: Number(waiting), created })
          await Bun.sleep(15)
        }
      })()
      const texts = Array.from({ length: burst }, (_, index) => `${tag} #${index}`)
      await Promise.all(texts.map((text) => hypha.send(channel, { text })))
      done = true
      await sampling
      fake.rest.limitRate(undefined)
      const created = fake.rest.created.entries.filter((message) => message.content.startsWith(tag))
      expect(created.map((message) => message.content)).toEqual(texts)
      expect(fake.rest.requests.entries.filter(ours).some((request) => request.status === 429)).toBe(true)
      // What waits plus what Discord holds is the whole burst, give or take the one on its way.
      expect(counts.length).toBeGreaterThan(0)
      for (const { waiting, created: posted } of counts) {
        expect(waiting + posted).toBeGreaterThanOrEqual(burst)
        expect(waiting + posted).toBeLessThanOrEqual(burst + 1)
      }
      expect((await hypha.health()).state).toBe('healthy')
    }, 30_000)
  }
})
