// The durable outbox over a real SQLite file: what it accepts is in the table before the caller
// hears, leaves it once the channel took it, survives a new start, and is dropped for age or a
// refusal with a log line and a count. Refusals (not live, full, stopping) reach the caller at once.
import { afterAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { type Logger, type OutgoingContent, type PushTarget, TemporaryFailure } from '@mycelo/septum'
import { DurableOutbox, type DurableOutboxOptions } from '../../outbox/durable-outbox.ts'
import { openStore, type Store } from '../../store/index.ts'
import { OutboxRows } from '../../store/outbox-rows.ts'
import { scratchFolder } from '../store/scratch.ts'

const scratch = scratchFolder('outbox')
afterAll(() => scratch.remove())

interface Line {
  readonly level: string
  readonly message: string
  readonly meta?: Readonly<Record<string, unknown>>
}

function recordingLogger(lines: Line[]): Logger {
  const logger: Logger = {
    debug: (message, meta) => lines.push({ level: 'debug', message, ...(meta ? { meta } : {}) }),
    info: (message, meta) => lines.push({ level: 'info', message, ...(meta ? { meta } : {}) }),
    warn: (message, meta) => lines.push({ level: 'warn', message, ...(meta ? { meta } : {}) }),
    error: (message, meta) => lines.push({ level: 'error', message, ...(meta ? { meta } : {}) }),
    child: () => logger,
  }
  return logger
}

type Send = DurableOutboxOptions['send']

interface Rig {
  readonly store: Store
  readonly outbox: DurableOutbox
  readonly lines: Line[]
  rows(): number
}

let databases = 0
function rig(
  options: { send: Send; live?: (channel: string) => boolean; path?: string } & Partial<DurableOutboxOptions>,
): Rig {
  const path = options.path ?? join(scratch.path, `outbox-${++databases}.db`)
  const store = openStore({ path })
  const lines: Line[] = []
  const outbox = new DurableOutbox({
    rows: new OutboxRows(store.db),
    live: () => true,
    logger: recordingLogger(lines),
    maxAgeMs: 60_000,
    limit: 100,
    retry: { initialMs: 10, maxMs: 40 },
    answerWithinMs: 1_000,
    sendWithinMs: 60_000,
    ...options,
  })
  const rows = () =>
    store.db.$client.query<{ n: number }, []>('SELECT count(*) AS n FROM outbox').get()?.n ?? 0
  return { store, outbox, lines, rows }
}

const chat = (conversationId = 'c1'): PushTarget => ({ channel: 'chat', conversationId })
const texts = (sent: { content: OutgoingContent }[]) => sent.map((one) => one.content.text)

describe('the durable outbox', () => {
  it('costs no write for a message the channel takes at once: its caller hears only once it was sent', async () => {
    let rowsDuringSend = -1
    const sent: { content: OutgoingContent; deliveryId?: string }[] = []
    const made: Rig = rig({
      send: async (_target, content, delivery) => {
        rowsDuringSend = made.rows()
        sent.push({ content, ...(delivery.deliveryId ? { deliveryId: delivery.deliveryId } : {}) })
      },
    })
    made.outbox.begin()
    const bytes = new Uint8Array([1, 2, 3])
    await made.outbox.accept(chat(), { text: 'hello', attachments: [{ data: bytes, name: 'b.bin' }] })
    expect(rowsDuringSend).toBe(0)
    expect(made.rows()).toBe(0)
    expect(sent[0]?.content).toEqual({ text: 'hello', attachments: [{ data: bytes, name: 'b.bin' }] })
    expect(sent[0]?.deliveryId).toMatch(/^[0-9a-z]{16}$/)
    made.store.close()
  })

  it('answers at once, with no turn waited, a message its channel took before its send returned', async () => {
    const sent: string[] = []
    const made = rig({ send: async (_target, content) => void sent.push(content.text ?? '') })
    made.outbox.begin()
    const answer = made.outbox.accept(chat(), { text: 'at once' })
    // Settled before anything awaited it: no reaction, no deadline watch, nothing left in a lane.
    expect(Bun.peek.status(answer)).toBe('fulfilled')
    expect(made.outbox.waiting()).toBe(0)
    expect(sent).toEqual(['at once'])
    expect(made.rows()).toBe(0)
    // A channel that has not answered yet is still waited on, as before.
    let release = () => {}
    const later = rig({
      send: () =>
        new Promise<void>((resolve) => {
          release = resolve
        }),
    })
    later.outbox.begin()
    const pending = later.outbox.accept(chat(), { text: 'later' })
    expect(Bun.peek.status(pending)).toBe('pending')
    release()
    await pending
    expect(later.outbox.waiting()).toBe(0)
    made.store.close()
    later.store.close()
  })

  it('reads the clock only for a message something will read the time of: never for one taken at once', async () => {
    let reads = 0
    const now = () => {
      reads += 1
      return 1_000_000 + reads
    }
    const made: Rig = rig({
      now,
      answerWithinMs: 20,
      send: (target, content) => {
        // Within its own send, the channel is handed a reply to the same conversation: it queues, recorded.
        if (content.text === 'outer') void made.outbox.accept(target, { text: 'inner' })
        return content.text === 'stuck' ? new Promise<void>(() => {}) : Promise.resolve()
      },
    })
    made.outbox.begin()
    await made.outbox.accept(chat('a'), { text: 'at once' })
    expect(reads).toBe(0)
    // The outer one is recorded while its hand-over runs: stamped then, so its row has a real time.
    const accepted = () =>
      made.store.db.$client
        .query<{ accepted_at: number }, []>('SELECT accepted_at FROM outbox ORDER BY id')
        .all()
        .map((row) => row.accepted_at)
    await made.outbox.accept(chat('b'), { text: 'outer' })
    await made.outbox.settled()
    expect(reads).toBeGreaterThan(0)
    // A message the channel does not answer is stamped, and recorded with that time once its caller hears.
    const before = reads
    await made.outbox.accept(chat('c'), { text: 'stuck' })
    expect(reads).toBeGreaterThan(before)
    expect(accepted().every((at) => at > 1_000_000)).toBe(true)
    expect(accepted()).toHaveLength(1)
    await made.outbox.close(10)
    made.store.close()
  })

  it('sends what queued behind a slow message in one loop once each is taken at once, in order, however many', async () => {
    const sent: string[] = []
    let release = () => {}
    const made = rig({
      limit: 20_000,
      send: (_target, content) => {
        if (content.text === 'slow') {
          return new Promise<void>((resolve) => {
            release = () => {
              sent.push('slow')
              resolve()
            }
          })
        }
        sent.push(content.text ?? '')
        return Promise.resolve()
      },
    })
    made.outbox.begin()
    const first = made.outbox.accept(chat(), { text: 'slow' })
    const queued = Array.from({ length: 10_000 }, (_, index) =>
      made.outbox.accept(chat(), { text: String(index) }),
    )
    await Promise.all(queued)
    expect(made.rows()).toBe(10_001)
    release()
    await first
    await made.outbox.settled()
    expect(sent).toEqual(['slow', ...Array.from({ length: 10_000 }, (_, index) => String(index))])
    expect(made.rows()).toBe(0)
    expect(made.outbox.waiting()).toBe(0)
    made.store.close()
  })

  it('keeps the order when a channel takes a message and, within that send, a reply to the same conversation is accepted', async () => {
    const sent: string[] = []
    const made: Rig = rig({
      send: (target, content) => {
        sent.push(content.text ?? '')
        // A channel that answers within its own send (an echo, a loopback): the inner one queues behind.
        if (content.text === 'outer') void made.outbox.accept(target, { text: 'inner' })
        return Promise.resolve()
      },
    })
    made.outbox.begin()
    await made.outbox.accept(chat(), { text: 'outer' })
    await made.outbox.settled()
    expect(sent).toEqual(['outer', 'inner'])
    expect(made.outbox.waiting()).toBe(0)
    expect(made.rows()).toBe(0)
    made.store.close()
  })

  it('records a message before its caller is told it was accepted unsent, and forgets it once the channel took it', async () => {
    let release = () => {}
    const slow = new Promise<void>((resolve) => {
      release = resolve
    })
    const sent: string[] = []
    const made: Rig = rig({
      answerWithinMs: 30,
      send: async (_target, content) => {
        if (content.text === 'slow') await slow
        sent.push(content.text ?? '')
      },
    })
    made.outbox.begin()
    // No word from the channel within answerWithinMs: the caller hears "accepted", so it is stored first.
    await made.outbox.accept(chat(), { text: 'slow' })
    expect(made.rows()).toBe(1)
    // One behind it is stored before its caller hears too, after the one ahead (the store keeps the order).
    await made.outbox.accept(chat(), { text: 'behind' })
    expect(made.rows()).toBe(2)
    const stored = made.store.db.$client
      .query<{ content: string }, []>('SELECT content FROM outbox ORDER BY id')
      .all()
      .map((row) => JSON.parse(row.content).text)
    expect(stored).toEqual(['slow', 'behind'])
    release()
    await made.outbox.settled()
    expect(sent).toEqual(['slow', 'behind'])
    expect(made.rows()).toBe(0)
    made.store.close()
  })

  it('sends a burst made at once in the order it was accepted, one at a time per conversation', async () => {
    const sent: { target: PushTarget; content: OutgoingContent }[] = []
    let running = 0
    let most = 0
    const made = rig({
      send: async (target, content) => {
        running += 1
        most = Math.max(most, running)
        await Bun.sleep(1)
        running -= 1
        sent.push({ target, content })
      },
    })
    made.outbox.begin()
    await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        made.outbox.accept(chat(index % 2 === 0 ? 'even' : 'odd'), { text: String(index) }),
      ),
    )
    await made.outbox.settled()
    const of = (conversation: string) =>
      texts(sent.filter((one) => one.target.conversationId === conversation))
    expect(of('even')).toEqual(Array.from({ length: 30 }, (_, index) => String(index * 2)))
    expect(of('odd')).toEqual(Array.from({ length: 30 }, (_, index) => String(index * 2 + 1)))
    expect(most).toBe(2)
    expect(made.rows()).toBe(0)
    made.store.close()
  })

  it('keeps what a stop left and sends it first at the next start, in order, before anything newer', async () => {
    const path = join(scratch.path, 'restart.db')
    const first = rig({ path, send: async () => Promise.reject(new TemporaryFailure('not connected')) })
    first.outbox.begin()
    for (const text of ['one', 'two', 'three']) await first.outbox.accept(chat(), { text })
    await first.outbox.close(100)
    expect(first.lines.map((line) => line.message)).toContain('outbox: messages wait for the next start')
    expect(
      first.lines.find((line) => line.message === 'outbox: messages wait for the next start')?.meta,
    ).toEqual({
      waiting: 3,
      channels: { chat: 3 },
    })
    first.store.close()
    const sent: { content: OutgoingContent }[] = []
    const second = rig({ path, send: async (_target, content) => void sent.push({ content }) })
    expect(second.outbox.waiting('chat')).toBe(3)
    // Accepted before begin(): it queues behind what the last run left.
    await second.outbox.accept(chat(), { text: 'four' })
    expect(sent).toEqual([])
    second.outbox.begin()
    await second.outbox.settled()
    expect(texts(sent)).toEqual(['one', 'two', 'three', 'four'])
    expect(second.rows()).toBe(0)
    second.store.close()
  })

  it('refuses at once, recording nothing, for a channel that is not live, a full outbox and while stopping', async () => {
    const made = rig({
      send: async () => Promise.reject(new TemporaryFailure('later')),
      live: (channel) => channel === 'chat',
      limit: 2,
    })
    made.outbox.begin()
    await expect(made.outbox.accept({ channel: 'off', conversationId: 'x' }, { text: 'x' })).rejects.toThrow(
      'channel "off" is not live; nothing was sent',
    )
    await made.outbox.accept(chat(), { text: 'a' })
    await made.outbox.accept(chat(), { text: 'b' })
    await expect(made.outbox.accept(chat('other'), { text: 'c' })).rejects.toThrow(
      'channel "chat" already has 2 messages waiting to be sent; nothing was sent',
    )
    expect(made.rows()).toBe(2)
    await made.outbox.close(50)
    await expect(made.outbox.accept(chat(), { text: 'd' })).rejects.toThrow('the bot is stopping')
    expect(made.rows()).toBe(2)
    made.store.close()
  })

  it('tries a temporary failure again and tells the caller the message is kept; a refusal reaches the caller and is counted', async () => {
    let failures = 2
    const sent: string[] = []
    const made = rig({
      send: async (_target, content) => {
        if (content.text === 'refused') throw new Error('no such conversation')
        if (failures-- > 0) throw new TemporaryFailure('reconnecting')
        sent.push(content.text ?? '')
      },
    })
    made.outbox.begin()
    await made.outbox.accept(chat(), { text: 'kept' })
    expect(made.outbox.waiting()).toBe(1)
    await made.outbox.accept(chat(), { text: 'behind' })
    for (let tries = 0; tries < 100 && sent.length < 2; tries++) await Bun.sleep(10)
    expect(sent).toEqual(['kept', 'behind'])
    await expect(made.outbox.accept(chat('x'), { text: 'refused' })).rejects.toThrow('no such conversation')
    const report = made.outbox.report()
    expect(report.channels).toEqual([
      {
        channel: 'chat',
        waiting: 0,
        conversations: [],
        dropped: { age: 0, refused: 1 },
        lastDrop: {
          at: expect.any(Date),
          conversationId: 'x',
          reason: 'refused',
          detail: 'no such conversation',
        },
      },
    ])
    expect(made.lines.filter((line) => line.level === 'error').map((line) => line.message)).toEqual([
      'outbox: the channel refused a message; dropped',
    ])
    expect(made.rows()).toBe(0)
    made.store.close()
  })

  it('drops what grew older than its age rather than sending it late, with a log line and a count', async () => {
    const path = join(scratch.path, 'age.db')
    let now = 1_000_000
    const first = rig({
      path,
      now: () => now,
      send: async () => Promise.reject(new TemporaryFailure('down')),
    })
    await first.outbox.accept(chat('old'), { text: 'stale' })
    await first.outbox.close(10)
    first.store.close()
    now += 61_000
    const sent: string[] = []
    const second = rig({
      path,
      now: () => now,
      send: async (_target, content) => void sent.push(content.text ?? ''),
    })
    const waiting = second.outbox.report().channels[0]
    expect(waiting?.conversations).toEqual([
      { conversationId: 'old', waiting: 1, oldest: new Date(1_000_000) },
    ])
    second.outbox.begin()
    await second.outbox.accept(chat('old'), { text: 'fresh' })
    await second.outbox.settled()
    expect(sent).toEqual(['fresh'])
    expect(second.lines.find((line) => line.level === 'warn')).toEqual({
      level: 'warn',
      message: 'outbox: dropped a message older than the outbox keeps messages; not sent late',
      meta: { channel: 'chat', conversationId: 'old', why: '61 s old' },
    })
    expect(second.outbox.report()).toEqual({
      maxAgeSeconds: 60,
      channels: [
        {
          channel: 'chat',
          waiting: 0,
          conversations: [],
          dropped: { age: 1, refused: 0 },
          lastDrop: { at: new Date(now), conversationId: 'old', reason: 'age', detail: '61 s old' },
        },
      ],
    })
    second.store.close()
  })

  it('does not send again a message the channel took after its try had timed out', async () => {
    let tries = 0
    const made = rig({
      answerWithinMs: 20,
      sendWithinMs: 60,
      retry: { initialMs: 300, maxMs: 300 },
      send: async () => {
        tries += 1
        await Bun.sleep(120)
      },
    })
    made.outbox.begin()
    // The caller hears "accepted" at 20 ms, so it is recorded; the try's own bound passes at 60 ms.
    await made.outbox.accept(chat(), { text: 'slow' })
    expect(made.rows()).toBe(1)
    for (let wait = 0; wait < 100 && made.outbox.waiting() > 0; wait++) await Bun.sleep(10)
    expect(made.outbox.waiting()).toBe(0)
    expect(made.rows()).toBe(0)
    await Bun.sleep(400)
    expect(tries).toBe(1)
    expect(made.lines.find((line) => line.message === 'deadline passed')?.meta).toEqual({
      spore: 'chat',
      step: 'send() on chat',
      ms: 60,
    })
    made.store.close()
  })

  it('keeps each conversation in order while others come and go, a lane freed by one used by the next', async () => {
    const sent: string[] = []
    const made = rig({
      send: async (target, content) => {
        await Bun.sleep(content.text?.endsWith('slow') ? 5 : 0)
        sent.push(`${target.conversationId}:${content.text}`)
      },
    })
    made.outbox.begin()
    for (let round = 0; round < 5; round++) {
      await made.outbox.accept(chat(`solo-${round}`), { text: 'alone' })
      await Promise.all([
        made.outbox.accept(chat('a'), { text: `${round}-1-slow` }),
        made.outbox.accept(chat('b'), { text: `${round}-1` }),
        made.outbox.accept(chat('a'), { text: `${round}-2` }),
        made.outbox.accept(chat('b'), { text: `${round}-2-slow` }),
        made.outbox.accept(chat('a'), { text: `${round}-3` }),
      ])
      await made.outbox.settled()
    }
    const of = (id: string) => sent.filter((one) => one.startsWith(`${id}:`))
    expect(of('a')).toEqual(
      Array.from({ length: 5 }, (_, r) => [`a:${r}-1-slow`, `a:${r}-2`, `a:${r}-3`]).flat(),
    )
    expect(of('b')).toEqual(Array.from({ length: 5 }, (_, r) => [`b:${r}-1`, `b:${r}-2-slow`]).flat())
    expect(sent.filter((one) => one.startsWith('solo-'))).toHaveLength(5)
    expect(made.outbox.waiting()).toBe(0)
    expect(made.outbox.report().channels).toEqual([])
    expect(made.rows()).toBe(0)
    made.store.close()
  })

  it('waits at close for a send under way, and keeps it when it does not finish in time', async () => {
    let finish: (() => void) | undefined
    const made = rig({
      send: () =>
        new Promise<void>((resolve) => {
          finish = resolve
        }),
      answerWithinMs: 10,
    })
    made.outbox.begin()
    await made.outbox.accept(chat(), { text: 'slow' })
    const closing = made.outbox.close(5_000)
    finish?.()
    await closing
    expect(made.rows()).toBe(0)
    expect(made.lines.map((line) => line.message)).not.toContain('outbox: messages wait for the next start')
    made.store.close()
    const stuck = rig({ send: () => new Promise<void>(() => {}), answerWithinMs: 10 })
    stuck.outbox.begin()
    await stuck.outbox.accept(chat(), { text: 'never' })
    await stuck.outbox.close(30)
    expect(stuck.rows()).toBe(1)
    expect(
      stuck.lines.find((line) => line.message === 'outbox: messages wait for the next start')?.meta,
    ).toEqual({
      waiting: 1,
      channels: { chat: 1 },
    })
    stuck.store.close()
  })
})
