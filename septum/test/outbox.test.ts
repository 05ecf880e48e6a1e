import { describe, expect, it } from 'bun:test'
import { type Logger, Outbox } from '../src/index.ts'

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

describe('Outbox', () => {
  it('holds what the service refused for its rate limit and sends it, in order, once the wait is over', async () => {
    const sent: string[] = []
    let limited = true
    const box = outbox()
    const post = (text: string) => async () => {
      if (limited) throw new Limited(30)
      sent.push(text)
    }
    expect(await box.deliver('c1', post('one'), 'one')).toBe('queued')
    expect(await box.deliver('c1', post('two'), 'two')).toBe('queued')
    expect(box.waiting).toBe(2)
    expect(lines).toContain('mychat: MyChat rate-limited the bot; messages wait to be sent in order')
    limited = false
    await Bun.sleep(80)
    expect(sent).toEqual(['one', 'two'])
    expect(box.waiting).toBe(0)
    expect(lines).toContain('mychat: the messages that waited have been sent')
    box.stop()
  })

  it('sends at once where nothing waits, holds up no other conversation, and drops what waits on stop()', async () => {
    const sent: string[] = []
    const box = outbox()
    const post = (text: string) => async () => void sent.push(text)
    const refused = async () => Promise.reject(new Limited(20))
    expect(await box.deliver('c1', refused, 'held')).toBe('queued')
    // Queued without being tried, so it cannot overtake the one held before it.
    expect(await box.deliver('c1', post('behind'), 'behind')).toBe('queued')
    expect(await box.deliver('c2', post('other'), 'other')).toBe('sent')
    expect(sent).toEqual(['other'])
    box.stop()
    expect(box.waiting).toBe(0)
    expect(lines).toContain('mychat: stopped with messages still waiting for the rate limit; not sent')
    await Bun.sleep(60)
    expect(sent).toEqual(['other'])
  })

  it('refuses past its bound, and passes any other refusal through as it was', async () => {
    const box = outbox(1)
    await box.deliver('c1', async () => Promise.reject(new Limited(10_000)), 'held')
    await expect(box.deliver('c1', async () => undefined, 'more')).rejects.toThrow('1 already wait')
    await expect(box.deliver('c2', async () => Promise.reject(new Error('forbidden')), 'x')).rejects.toThrow(
      'forbidden',
    )
    box.stop()
  })
})
