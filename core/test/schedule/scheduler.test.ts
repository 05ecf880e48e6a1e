// Schedules over a real SQLite file and a clock the test moves: cron in a time zone, one-shots,
// missed runs after a restart, errors kept on the row, no overlap, and one timer for them all.
import { afterEach, beforeEach, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { type ScheduledRun, ScheduleError } from '@mycelo/septum'
import { ManualClock } from '../../schedule/clock.ts'
import { Scheduler } from '../../schedule/scheduler.ts'
import { SporeScheduleView } from '../../schedule/spore-schedule.ts'
import { openStore, type Store } from '../../store/index.ts'
import { type MemoryLogger, memoryLogger } from '../germination/fixtures.ts'
import { scratchFolder } from '../store/scratch.ts'

let scratch: ReturnType<typeof scratchFolder>
let store: Store
let clock: ManualClock
let logger: MemoryLogger
let scheduler: Scheduler
let runnable: (spore: string) => boolean
beforeEach(() => {
  scratch = scratchFolder('schedule')
  store = openStore({ path: join(scratch.path, 'mycelo.db') })
  clock = new ManualClock('2026-01-05T07:00:00Z')
  logger = memoryLogger()
  runnable = () => true
  scheduler = boot()
})
afterEach(() => {
  scheduler.stop()
  store.close()
  scratch.remove()
})

/** A scheduler as one start of the bot makes it, on the same database and clock. */
function boot(): Scheduler {
  return new Scheduler({ store, logger, deadlineMs: 60_000, runnable: (spore) => runnable(spore), clock })
}

const view = (spore = 'chime', timeZone = 'UTC') => new SporeScheduleView({ scheduler, spore, timeZone })
const advance = (ms: number) => clock.advance(ms, () => scheduler.idle())
const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

function recorder() {
  const runs: ScheduledRun[] = []
  return { runs, handler: (run: ScheduledRun) => void runs.push(run) }
}

describe('cron schedules', () => {
  it('run at each time the expression names, in its time zone, with the data they were given', async () => {
    const { runs, handler } = recorder()
    const entry = await view().cron(
      '0 9 * * *',
      { id: 'morning', timeZone: 'Europe/Paris', data: { greet: 'bonjour' } },
      handler,
    )
    // 09:00 in Paris in January is 08:00 UTC.
    expect(entry).toMatchObject({ id: 'morning', cron: '0 9 * * *', nextAt: '2026-01-05T08:00:00.000Z' })
    await advance(2 * DAY)
    expect(runs.map((run) => [run.dueAt, run.missed, run.data])).toEqual([
      ['2026-01-05T08:00:00.000Z', false, { greet: 'bonjour' }],
      ['2026-01-06T08:00:00.000Z', false, { greet: 'bonjour' }],
    ])
    const [listed] = await view().list()
    expect(listed).toMatchObject({
      nextAt: '2026-01-07T08:00:00.000Z',
      lastRunAt: '2026-01-06T08:00:00.000Z',
    })
  })

  it("keeps a failed run's error on the row and logs it with the spore's name; a good run clears it", async () => {
    let fail = true
    const chime = view()
    await chime.cron('*/10 * * * *', { id: 'tick' }, () => {
      if (fail) throw new Error('the bell is cracked')
    })
    await advance(10 * MINUTE)
    expect((await chime.list())[0]).toMatchObject({ lastError: 'the bell is cracked' })
    const logged = logger.entries.find((entry) => entry.message === 'schedule run failed')
    expect(logged).toMatchObject({ level: 'error', meta: { error: 'the bell is cracked' } })
    expect(logged?.bindings).toMatchObject({ spore: 'chime', schedule: 'tick' })
    fail = false
    await advance(10 * MINUTE)
    expect((await chime.list())[0]?.lastError).toBeUndefined()
  })

  it('never overlaps itself: a run still going when the next falls due skips that one', async () => {
    let release: () => void = () => undefined
    let started = 0
    await view().cron('* * * * *', { id: 'slow' }, () => {
      started++
      return new Promise<void>((resolve) => {
        release = resolve
      })
    })
    await clock.advance(3 * MINUTE)
    expect(started).toBe(1)
    expect(
      logger.entries.filter((e) => e.message === 'schedule skipped a run: its previous run is still going'),
    ).toHaveLength(2)
    release()
    await scheduler.idle()
    await clock.advance(MINUTE)
    expect(started).toBe(2)
    release()
  })

  it('ends a run at the handler deadline: its signal aborts and the row keeps why', async () => {
    scheduler.stop()
    scheduler = new Scheduler({ store, logger, deadlineMs: 5, runnable: () => true, clock })
    let aborted: unknown
    const chime = view()
    await chime.once('2026-01-05T07:01:00Z', { id: 'stuck' }, (run) => {
      // Settles only once told to stop, as a well-behaved handler does.
      return new Promise<void>((resolve) => {
        run.signal.addEventListener('abort', () => {
          aborted = run.signal.reason
          resolve()
        })
      })
    })
    await advance(MINUTE)
    expect((await chime.list())[0]).toMatchObject({
      lastError: 'schedule "stuck" did not finish within 5 ms',
    })
    expect((aborted as Error).name).toBe('DeadlineExceeded')
    expect(logger.entries.map((entry) => entry.message)).toContain('schedule run passed its deadline')
  })

  it('keeps its pending time when declared again unchanged, and recomputes it when the timing changes', async () => {
    await view().cron('0 12 * * *', { id: 'noon' }, () => undefined)
    await clock.advance(HOUR)
    const again = await view().cron('0 12 * * *', { id: 'noon' }, () => undefined)
    expect(again.nextAt).toBe('2026-01-05T12:00:00.000Z')
    const moved = await view().cron('30 12 * * *', { id: 'noon' }, () => undefined)
    expect(moved.nextAt).toBe('2026-01-05T12:30:00.000Z')
  })
})

describe('one-shot schedules', () => {
  it('run once at their time and are then removed', async () => {
    const { runs, handler } = recorder()
    const chime = view()
    await chime.once('2026-01-05T09:30:00+01:00', { id: 'once' }, handler)
    await advance(DAY)
    expect(runs.map((run) => run.dueAt)).toEqual(['2026-01-05T08:30:00.000Z'])
    expect(await chime.list()).toEqual([])
  })

  it('stay listed with their error and no next time when their run fails', async () => {
    const chime = view()
    await chime.once(new Date('2026-01-05T07:05:00Z'), { id: 'doomed' }, () => {
      throw new Error('nobody home')
    })
    await advance(HOUR)
    expect(await chime.list()).toEqual([
      expect.objectContaining({
        id: 'doomed',
        lastError: 'nobody home',
        lastRunAt: '2026-01-05T07:05:00.000Z',
      }),
    ])
    expect((await chime.list())[0]?.nextAt).toBeUndefined()
  })

  it('are found again after a restart by a handler attached to their id prefix', async () => {
    await view('reminders').once(
      '2026-01-05T10:00:00Z',
      { id: 'remind:ada:1', data: { text: 'tea' } },
      () => undefined,
    )
    await view('reminders').once(
      '2026-01-05T11:00:00Z',
      { id: 'remind:bob:1', data: { text: 'post' } },
      () => undefined,
    )
    scheduler.stop()
    scheduler = boot()
    const { runs, handler } = recorder()
    view('reminders').handle('remind:', handler)
    await advance(3 * HOUR)
    expect(runs.map((run) => [run.id, run.data, run.missed])).toEqual([
      ['remind:ada:1', { text: 'tea' }, false],
    ])
    await advance(HOUR)
    expect(runs.map((run) => run.id)).toEqual(['remind:ada:1', 'remind:bob:1'])
  })

  it('can be cancelled before they run', async () => {
    const { runs, handler } = recorder()
    const chime = view()
    await chime.once('2026-01-05T08:00:00Z', { id: 'maybe' }, handler)
    expect(await chime.cancel('maybe')).toBe(true)
    expect(await chime.cancel('maybe')).toBe(false)
    await advance(DAY)
    expect(runs).toEqual([])
  })
})

describe('runs missed while the bot was down', () => {
  it('run once at start, marked missed, under run-once; and move on silently under skip', async () => {
    await view().cron('0 * * * *', { id: 'hourly-catch-up', missed: 'run-once' }, () => undefined)
    await view().cron('0 * * * *', { id: 'hourly-skip', missed: 'skip' }, () => undefined)
    await view().once('2026-01-05T09:00:00Z', { id: 'lost', missed: 'skip' }, () => undefined)
    scheduler.stop()
    // Down for five hours: the clock moves while nothing runs.
    await clock.advance(5 * HOUR)
    scheduler = boot()
    const { runs, handler } = recorder()
    const chime = view()
    await chime.cron('0 * * * *', { id: 'hourly-catch-up', missed: 'run-once' }, handler)
    await chime.cron('0 * * * *', { id: 'hourly-skip', missed: 'skip' }, handler)
    chime.handle('lost', handler)
    await advance(0)
    expect(runs.map((run) => [run.id, run.dueAt, run.missed])).toEqual([
      ['hourly-catch-up', '2026-01-05T08:00:00.000Z', true],
    ])
    const listed = await chime.list()
    expect(listed.map((entry) => [entry.id, entry.nextAt])).toEqual([
      ['hourly-catch-up', '2026-01-05T13:00:00.000Z'],
      ['hourly-skip', '2026-01-05T13:00:00.000Z'],
    ])
    await advance(HOUR)
    expect(runs.map((run) => [run.id, run.missed])).toEqual([
      ['hourly-catch-up', true],
      ['hourly-catch-up', false],
      ['hourly-skip', false],
    ])
  })
})

describe("the spore's lifetime", () => {
  it('detaches handlers on dispose, keeping the rows for the next start', async () => {
    const { runs, handler } = recorder()
    const chime = view()
    await chime.cron('* * * * *', { id: 'tick' }, handler)
    chime.dispose()
    await advance(5 * MINUTE)
    expect(runs).toEqual([])
    expect((await view().list()).map((entry) => entry.id)).toEqual(['tick'])
  })

  it('holds a due run while its spore cannot run, and runs it once woken', async () => {
    runnable = () => false
    const { runs, handler } = recorder()
    await view().once('2026-01-05T07:30:00Z', { id: 'held' }, handler)
    await advance(HOUR)
    expect(runs).toEqual([])
    runnable = () => true
    scheduler.wake()
    await advance(0)
    expect(runs.map((run) => run.id)).toEqual(['held'])
  })

  it('keeps one timer however many schedules are pending', async () => {
    const reminders = view('reminders')
    for (let n = 0; n < 5_000; n++) {
      await reminders.once(new Date(Date.UTC(2026, 0, 6) + n * 1000), { id: `r:${n}` }, () => undefined)
    }
    expect(clock.pending).toBe(1)
    expect((await reminders.list('r:499')).length).toBe(11)
  })
})

describe('refusals', () => {
  it('name what is wrong with a cron expression, time zone, policy, id or time', async () => {
    const chime = view()
    const noop = () => undefined
    const cases: [() => Promise<unknown>, string][] = [
      [
        () => chime.cron('61 * * * *', { id: 'a' }, noop),
        'schedule "a": cron expression "61 * * * *" is invalid: ',
      ],
      [
        () => chime.cron('* * * *', { id: 'b' }, noop),
        'schedule "b": cron expression "* * * *" has 4 fields; expected 5',
      ],
      [
        () => chime.cron('* * * * *', { id: 'c', timeZone: 'Mars/Olympus' }, noop),
        'schedule "c": time zone "Mars/Olympus" is not an IANA time zone such as "Europe/Paris"',
      ],
      [
        () => chime.cron('* * * * *', { id: 'd', missed: 'later' as never }, noop),
        'schedule "d": missed must be "skip" or "run-once", got "later"',
      ],
      [
        () => chime.cron('* * * * *', { id: '' }, noop),
        'a schedule id must be a string of 1 to 256 characters',
      ],
      [
        () => chime.once('2026-01-05T06:00:00Z', { id: 'e' }, noop),
        'schedule "e": 2026-01-05T06:00:00.000Z is already past (now 2026-01-05T07:00:00.000Z)',
      ],
      [
        () => chime.once('tomorrow', { id: 'f' }, noop),
        'schedule "f": "tomorrow" is not a time; give a Date or an ISO 8601 time with its offset',
      ],
      [
        () => chime.once('2026-02-01T10:00:00', { id: 'g' }, noop),
        'schedule "g": "2026-02-01T10:00:00" is not a time',
      ],
      [
        () => chime.cron('* * * * *', { id: 'h' }, 'run' as never),
        'schedule "h": the handler must be a function',
      ],
    ]
    for (const [call, message] of cases) {
      const error = await call().then(
        () => undefined,
        (caught: unknown) => caught,
      )
      expect(error).toBeInstanceOf(ScheduleError)
      expect((error as Error).message).toStartWith(message)
    }
    expect(await chime.list()).toEqual([])
  })
})
