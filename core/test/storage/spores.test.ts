// septum 1.1 through the real core: a spore on disk that migrates its storage, keeps notes and
// schedules across a restart, catches up a run missed while the bot was down, meets its quota, and
// lets go of its handlers on reload; a failed migration leaves it dormant and its data untouched.
import { afterEach, describe, expect, it } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { and, asc, eq } from 'drizzle-orm'
import { pluginsToggle } from '../../mycelium/plugins.ts'
import { ManualClock } from '../../schedule/clock.ts'
import type { Store } from '../../store/index.ts'
import { sporeData, sporeMigrations, sporeSchedules } from '../../store/schema/index.ts'
import { scratchFolder } from '../store/scratch.ts'
import { startTestCore, type TestCore } from '../support/runtime.ts'
import { JOURNAL, journalModule } from './journal-spore.ts'

const HOUR = 3_600_000
let core: TestCore | undefined
let scratch: ReturnType<typeof scratchFolder> | undefined
afterEach(async () => {
  await core?.stop()
  scratch?.remove()
  core = undefined
  scratch = undefined
})

const entries = (store: Store, spore: string) =>
  store.db
    .select({ key: sporeData.key, value: sporeData.value })
    .from(sporeData)
    .where(eq(sporeData.spore, spore))
    .orderBy(asc(sporeData.key))
    .all()
    .map((row) => [row.key, JSON.parse(row.value)])

const versions = (store: Store, spore: string) =>
  store.db
    .select({ version: sporeMigrations.version })
    .from(sporeMigrations)
    .where(eq(sporeMigrations.spore, spore))
    .all()
    .map((row) => row.version)

const QUOTA = 'storage:\n  quotaBytes: 100000\n  spores:\n    journal: 300\n'

async function boot(
  clock: ManualClock,
  spores: Record<string, Record<string, string>> = { journal: JOURNAL },
) {
  scratch ??= scratchFolder('journal')
  return startTestCore({ spores, folder: scratch.path, clock, config: QUOTA })
}

const settle = (running: TestCore) => () => running.assembly.runtime.holdings.scheduler.idle()
const texts = (running: TestCore) => running.sent.map((sent) => sent.content.text)

describe('a septum 1.1 spore through the real core', () => {
  it('migrates, stores, schedules, survives a restart and catches up a missed run', async () => {
    const clock = new ManualClock('2026-01-05T07:00:00Z')
    core = await boot(clock)
    expect(core.germination.byName.get('journal')?.state).toBe('live')
    expect(versions(core.store, 'journal')).toEqual([1, 2])
    expect(await core.ask('/note buy tea')).toEqual(['noted 1'])
    expect(await core.ask('/remind 2026-01-05T10:00:00Z call Ada')).toEqual([
      'reminding at 2026-01-05T10:00:00.000Z',
    ])
    expect(entries(core.store, 'journal')).toEqual([
      ['count', 1],
      ['meta:created', 'v1'],
      ['meta:shape', 'object'],
      ['note:1', { text: 'buy tea' }],
    ])

    // 09:00 in Paris is 08:00 UTC in January.
    await clock.advance(HOUR, settle(core))
    expect(texts(core).at(-1)).toBe('digest: 1')

    // Down for two days: the digests of the 6th and 7th and the reminder all fall due meanwhile.
    await core.stop()
    core = undefined
    await clock.advance(2 * 24 * HOUR + HOUR)
    core = await boot(clock)
    await clock.advance(0, settle(core))
    expect(texts(core).sort()).toEqual(['digest (missed): 1', 'reminder (missed): call Ada'])
    expect(versions(core.store, 'journal')).toEqual([1, 2])
    expect(await core.ask('/note water plants')).toEqual(['noted 2'])
    const digest = core.store.db
      .select()
      .from(sporeSchedules)
      .where(and(eq(sporeSchedules.spore, 'journal'), eq(sporeSchedules.id, 'digest')))
      .get()
    expect(new Date(digest!.nextAt!).toISOString()).toBe('2026-01-08T08:00:00.000Z')
    // The reminder ran well, so it is gone.
    expect(
      core.store.db
        .select()
        .from(sporeSchedules)
        .all()
        .map((row) => row.id),
    ).toEqual(['digest'])
  })

  it("refuses a write past the spore's quota from mycelo.yaml and changes nothing", async () => {
    core = await boot(new ManualClock('2026-01-05T07:00:00Z'))
    const before = entries(core.store, 'journal')
    const [answer] = await core.ask('/big 400')
    expect(answer).toMatch(
      /^StorageError: spore "journal", storage key "big": writing it would use \d+ bytes, past the quota of 300/,
    )
    expect(entries(core.store, 'journal')).toEqual(before)
    expect(await core.ask('/big 10')).toEqual(['stored'])
  })

  it('detaches the old handlers on reload: only the new code runs the next digest', async () => {
    const clock = new ManualClock('2026-01-05T07:00:00Z')
    core = await boot(clock)
    writeFileSync(join(scratch!.path, 'spores', 'journal', 'src', 'index.ts'), journalModule('fresh digest'))
    const outcome = await core.assembly.runtime.lifecycle.restart('journal', { fresh: true })
    expect(outcome.state).toBe('live')
    await clock.advance(HOUR, settle(core))
    expect(texts(core)).toEqual(['fresh digest: 0'])
  })

  it('runs nothing while disabled, and catches up the missed run once enabled again', async () => {
    const clock = new ManualClock('2026-01-05T07:00:00Z')
    core = await boot(clock)
    const toggle = pluginsToggle(core.assembly.runtime, core.assembly.runtime.plugins)
    expect((await toggle.disable('journal')).ok).toBe(true)
    await clock.advance(2 * HOUR, settle(core))
    expect(texts(core)).toEqual([])
    expect((await toggle.enable('journal')).ok).toBe(true)
    await clock.advance(0, settle(core))
    expect(texts(core)).toEqual(['digest (missed): 0'])
  })
})

const BROKEN = (migrations: string) => ({
  'spore.yaml': 'kind: rhiza\nname: ledger\nseptum: "^1.1"\n',
  'src/index.ts': `export default {
  migrations: ${migrations},
  create: () => ({
    async start() {}, async stop() {},
    async health() { return { state: 'healthy', checkedAt: new Date() } },
    api: {},
  }),
}
`,
})

describe('storage migrations', () => {
  it('leave a spore dormant, naming the version, when one throws; its writes and later ones never land', async () => {
    core = await boot(new ManualClock(), {
      ledger: BROKEN(`[
        { version: 1, up(tx) { tx.set('a', 1) } },
        { version: 2, up(tx) { tx.set('b', 2); throw new Error('column missing') } },
        { version: 3, up(tx) { tx.set('c', 3) } },
      ]`),
    })
    const ledger = core.germination.byName.get('ledger')
    expect(ledger?.state).toBe('dormant')
    expect(ledger?.reason).toBe('storage migration 2 failed: column missing')
    expect(entries(core.store, 'ledger')).toEqual([['a', 1]])
    expect(versions(core.store, 'ledger')).toEqual([1])
  })

  it('keep a spore from running when their versions do not strictly increase, before any of them runs', async () => {
    core = await boot(new ManualClock(), {
      ledger: BROKEN(`[{ version: 2, up(tx) { tx.set('a', 1) } }, { version: 2, up() {} }]`),
    })
    // Refused by its first start's checks, the module never runs: it stays off, saying why.
    const ledger = core.germination.byName.get('ledger')
    expect(ledger?.state).toBe('disabled')
    expect(ledger?.reason).toContain(
      'storage migrations refused: migrations[1].version 2 does not come after 2: versions must be strictly increasing',
    )
    expect(entries(core.store, 'ledger')).toEqual([])
  })

  it('run the ones added since, on reload', async () => {
    core = await boot(new ManualClock(), { ledger: BROKEN(`[{ version: 1, up(tx) { tx.set('a', 1) } }]`) })
    expect(versions(core.store, 'ledger')).toEqual([1])
    const grown = BROKEN(
      `[{ version: 1, up(tx) { tx.set('a', 1) } }, { version: 2, up(tx) { tx.set('a', 2) } }]`,
    )
    writeFileSync(join(scratch!.path, 'spores', 'ledger', 'src', 'index.ts'), grown['src/index.ts'])
    expect((await core.assembly.runtime.lifecycle.restart('ledger', { fresh: true })).state).toBe('live')
    expect(versions(core.store, 'ledger')).toEqual([1, 2])
    expect(entries(core.store, 'ledger')).toEqual([['a', 2]])
  })
})

describe('every kind', () => {
  it('gets its own storage and schedule: a hypha at connect, a rhiza at start, an inhibitor judging', async () => {
    const writes = (kind: string, extra: string) => `export default { create: () => ({
  ${extra}
  async stop() {},
  async ${kind === 'hypha' ? 'connect' : 'start'}(ctx) {
    await ctx.storage.set('kind', '${kind}')
    await ctx.schedule.cron('0 0 1 1 *', { id: 'yearly' }, () => {})
  },
}) }
`
    core = await boot(new ManualClock('2026-01-05T07:00:00Z'), {
      ear: {
        'spore.yaml': 'kind: hypha\nname: ear\nseptum: "^1.1"\ncapabilities: []\n',
        'src/index.ts': writes('hypha', 'async listen() {}, async send() {},'),
      },
      tally: {
        'spore.yaml': 'kind: rhiza\nname: tally\nseptum: "^1.1"\n',
        'src/index.ts': writes(
          'rhiza',
          "api: {}, async health() { return { state: 'healthy', checkedAt: new Date() } },",
        ),
      },
      gate: {
        'spore.yaml': 'kind: inhibitor\nname: gate\nseptum: "^1.1"\n',
        'src/index.ts': writes(
          'inhibitor',
          `async inspect(message, ctx) {
    await ctx.storage.transaction((tx) => tx.set('seen', (tx.get('seen') ?? 0) + 1))
    return { allow: true }
  },`,
        ),
      },
    })
    for (const name of ['ear', 'tally', 'gate']) expect(core.germination.byName.get(name)?.state).toBe('live')
    await core.say('hello')
    await core.say('again')
    expect(entries(core.store, 'ear')).toEqual([['kind', 'hypha']])
    expect(entries(core.store, 'tally')).toEqual([['kind', 'rhiza']])
    expect(entries(core.store, 'gate')).toEqual([
      ['kind', 'inhibitor'],
      ['seen', 2],
    ])
    const yearly = core.store.db
      .select()
      .from(sporeSchedules)
      .all()
      .map((row) => `${row.spore} ${row.id}`)
    expect(yearly.sort()).toEqual(['ear yearly', 'gate yearly', 'tally yearly'])
  })
})

describe('septum versions', () => {
  it('germinates a 1.0 spore unchanged beside a 1.1 one, and refuses one that needs a later septum', async () => {
    const classic = {
      'spore.yaml':
        'kind: enzyme\nname: classic\nseptum: "^1.0"\ncommands:\n  - name: ping\n    description: ping.d\n    code: ping\n',
      'src/index.ts': `export default { create: () => ({ handlers: { async ping(i, ctx) { await ctx.reply({ text: 'pong' }) } } }) }\n`,
    }
    const future = {
      'spore.yaml': 'kind: rhiza\nname: future\nseptum: "^1.2"\n',
      'src/index.ts': BROKEN('[]')['src/index.ts'],
    }
    core = await boot(new ManualClock(), { journal: JOURNAL, classic, future })
    expect(core.germination.byName.get('classic')?.state).toBe('live')
    expect(core.germination.byName.get('journal')?.state).toBe('live')
    expect(await core.ask('/ping')).toEqual(['pong'])
    const refused = core.germination.byName.get('future')
    expect(refused?.state).toBe('disabled')
    expect(refused?.reason).toContain('septum range "^1.2" excludes septum 1.1.0')
  })
})
