import { describe, expect, it } from 'bun:test'
import { isTemporaryFailure, type Logger, Outbox } from '../src/index.ts'

const lines: string[] = []
const logger: Logger = {
  debug: (m) => lines.push(m),
  info: (m) => lines.push(m),
  warn: (m) => lines.push(m),
  error: (m) => lines.push(m),
  child: () => logger,
}

class Limited extends Error {
  constructor(readonly waitMs: number) {
    super('rate limited')
  }
}

const outbox = (limit = 3) =>
  new Outbox({
    logger,
    limit,
    retryAfterMs: (error) => (error instanceof Limited ? error.waitMs : undefined),
    channel: 'mychat',
    limitedBy: 'MyChat rate-limited the bot',
    full: (n) => new Error(`${n} already wait`),
  })

/** A service that takes `perWindow` messages every `windowMs` and refuses the rest for its rate limit. */
function limitedService(perWindow: number, windowMs: number) {
  const taken: string[] = []
  let windowStart = Date.now()
  let inWindow = 0
  let inFlight = 0
  let mostInFlight = 0
  const post = (text: string) => async () => {
    inFlight += 1
    mostInFlight = Math.max(mostInFlight, inFlight)
    await Bun.sleep(1)
    inFlight -= 1
    if (Date.now() - windowStart >= windowMs) {
      windowStart = Date.now()
      inWindow = 0
    }
    if (inWindow >= perWindow) throw new Limited(windowMs - (Date.now() - windowStart))
    inWindow += 1
    taken.push(text)
  }
  return { taken, post, mostInFlight: () => mostInFlight }
}

describe('Outbox', () => {
  it('holds what the service refused for its rate limit and sends it, in order, once the wait is over', async () => {
    const sent: string[] = []
    let limited = true
    const box = outbox()
    const post = (text: string) => async () => {
      if (limited) throw new Limited(30)
      sent.push(text)
    }
    const one = box.deliver('c1', post('one'), 'one')
    const two = box.deliver('c1', post('two'), 'two')
    expect(box.waiting).toBe(2)
    await Bun.sleep(5)
    expect(box.rateLimited).toBe(2)
    expect(lines).toContain('mychat: MyChat rate-limited the bot; messages wait to be sent in order')
    limited = false
    await Promise.all([one, two])
    expect(sent).toEqual(['one', 'two'])
    expect(box.waiting).toBe(0)
    expect(box.lanes()).toEqual([])
    box.stop()
  })

  for (const burst of [50, 200]) {
    it(`sends a burst of ${burst} made at once to one conversation in order, once each, counting what waits`, async () => {
      const service = limitedService(7, 20)
      const box = outbox(burst)
      const seen: number[] = []
      const sends = Array.from({ length: burst }, (_, index) =>
        box.deliver('c1', service.post(String(index)), String(index)).then(() => {
          seen.push(box.waiting)
        }),
      )
      expect(box.waiting).toBe(burst)
      expect(box.lanes()).toEqual([{ conversation: 'c1', waiting: burst, rateLimited: false }])
      await Promise.all(sends)
      expect(service.taken).toEqual(Array.from({ length: burst }, (_, index) => String(index)))
      expect(service.mostInFlight()).toBe(1)
      // Each confirmation sees exactly the messages behind it still counted.
      expect(seen).toEqual(Array.from({ length: burst }, (_, index) => burst - 1 - index))
      expect(box.waiting).toBe(0)
      box.stop()
    })
  }

  it('holds up no other conversation while one waits for the rate limit', async () => {
    const sent: string[] = []
    const box = outbox()
    const held = box.deliver('c1', async () => Promise.reject(new Limited(10_000)), 'held')
    await box.deliver('c2', async () => void sent.push('other'), 'other')
    expect(sent).toEqual(['other'])
    box.stop()
    await expect(held).rejects.toThrow('mychat: stopped; "held" was not sent')
  })

  it('on stop() rejects what waits with a temporary failure, so a durable caller keeps it', async () => {
    const box = outbox(10)
    const first = box.deliver('c1', async () => Promise.reject(new Limited(10_000)), 'first')
    const second = box.deliver('c1', async () => undefined, 'second')
    box.stop()
    // The first was on its way when the outbox stopped: it counts until the service answers.
    expect(box.waiting).toBe(1)
    const failures = await Promise.allSettled([first, second])
    expect(box.waiting).toBe(0)
    for (const failure of failures) {
      expect(failure.status).toBe('rejected')
      expect(isTemporaryFailure((failure as PromiseRejectedResult).reason)).toBe(true)
    }
    expect(lines).toContain('mychat: stopped with messages still waiting; not sent here')
    await expect(box.deliver('c1', async () => undefined, 'late')).rejects.toThrow('stopped')
  })

  it('refuses past its bound at once, counting every message that waits, and passes any other refusal through', async () => {
    const box = outbox(2)
    const held = box.deliver('c1', async () => Promise.reject(new Limited(10_000)), 'held')
    const behind = box.deliver('c1', async () => undefined, 'behind')
    await expect(box.deliver('c3', async () => undefined, 'more')).rejects.toThrow('2 already wait')
    expect(box.waiting).toBe(2)
    box.stop()
    await Promise.allSettled([held, behind])
    const open = outbox(2)
    await expect(open.deliver('c2', async () => Promise.reject(new Error('forbidden')), 'x')).rejects.toThrow(
      'forbidden',
    )
    // A refusal does not hold up what follows it.
    await open.deliver('c2', async () => undefined, 'y')
    expect(open.waiting).toBe(0)
    open.stop()
  })
})
