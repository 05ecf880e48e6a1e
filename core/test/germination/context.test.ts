import { describe, expect, it } from 'bun:test'
import { type Germination, sporeContext, startAll } from '../../germination/index.ts'
import {
  germinateIn,
  lifecycleModule,
  manifestOf,
  memoryHoldings,
  memoryLogger,
  myceliumFor,
  resetJournal,
  SqliteStore,
  scratchRoot,
  sporeNamed,
  testContexts,
  writeSpore,
} from './fixtures.ts'

const root = scratchRoot()

const rhiza = (name: string, behaviour = {}) =>
  writeSpore(root(), name, {
    manifest: manifestOf('rhiza', name),
    files: { 'src/index.ts': lifecycleModule('rhiza', name, behaviour) },
  })

/** An enzyme whose start() writes what its context answers into the journal. */
const reader = `export default {
  create: () => ({
    handlers: { go() {} },
    async start(ctx) {
      const journal = globalThis.germinationJournal
      journal.push({
        config: ctx.config,
        db: ctx.rhiza('db'),
        mycelium: ctx.rhiza('mycelium'),
        has: { db: ctx.has('db'), absent: ctx.has('absent'), mycelium: ctx.has('mycelium'), other: ctx.has('other') },
      })
      ctx.logger.child({ step: 'start' }).info('started')
      try { ctx.rhiza('other') } catch (error) { journal.push(error.message) }
    },
  }),
}
`

async function germinateReader(): Promise<Germination> {
  await rhiza('db')
  await rhiza('other')
  await writeSpore(root(), 'reader', {
    manifest: manifestOf('enzyme', 'reader', {
      requires: [
        { rhiza: 'db' },
        { rhiza: 'absent', optional: true },
        { rhiza: 'mycelium', scopes: ['plugins.read'] },
      ],
    }),
    files: { 'src/index.ts': reader },
  })
  const store = SqliteStore.enabling('db', 'other', 'reader')
  store.settings.set('reader', { greeting: 'hi' })
  const { germination } = await germinateIn(root(), store)
  return germination
}

describe('spore contexts', () => {
  it('carries the validated settings, a scoped logger and the required rhizas', async () => {
    const germination = await germinateReader()
    const logger = memoryLogger()
    const journal: unknown[] = []
    ;(globalThis as { germinationJournal?: unknown[] }).germinationJournal = journal

    await startAll(germination, testContexts(germination, logger))

    expect(journal.filter((entry) => typeof entry === 'object')).toEqual([
      {
        config: { greeting: 'hi' },
        db: { owner: 'db' },
        mycelium: { askedBy: 'reader' },
        has: { db: true, absent: false, mycelium: true, other: false },
      },
    ])
    expect(journal).toContain('spore "reader" does not require rhiza "other"; declare it under requires')
    expect(logger.entries).toEqual([
      { level: 'info', message: 'started', meta: undefined, bindings: { spore: 'reader', step: 'start' } },
    ])
  })

  it('refuses an absent optional rhiza and answers has() false for a rhiza that is not live', async () => {
    const germination = await germinateReader()
    const spore = sporeNamed(germination, 'reader')
    const ctx = sporeContext(spore, {
      germination,
      logger: memoryLogger(),
      mycelium: myceliumFor,
      ...memoryHoldings,
    })

    expect(() => ctx.rhiza('absent')).toThrow(
      'rhiza "absent" is not installed; ask ctx.has("absent") before using',
    )
    sporeNamed(germination, 'db').state = 'dormant'
    expect(ctx.has('db')).toBe(false)
    expect(() => ctx.rhiza('db')).toThrow('rhiza "db" is dormant; ask ctx.has("db") first')
  })

  it('answers has() false once a required rhiza fails to start', async () => {
    await rhiza('db', { fail: 'start' })
    await writeSpore(root(), 'watcher', {
      manifest: manifestOf('enzyme', 'watcher', { requires: [{ rhiza: 'db', optional: true }] }),
      files: { 'src/index.ts': lifecycleModule('enzyme', 'watcher') },
    })
    const { germination, logger } = await germinateIn(root(), SqliteStore.enabling('db', 'watcher'))
    resetJournal()

    await startAll(germination, testContexts(germination, logger))

    const watcher = sporeNamed(germination, 'watcher')
    expect(watcher.state).toBe('live')
    expect(
      sporeContext(watcher, { germination, logger, mycelium: myceliumFor, ...memoryHoldings }).has('db'),
    ).toBe(false)
  })
})
