// A bot folder for the operations tests: the console channel (so a test types to the bot), an
// installed spore under data/spores (its row naming source and strain) with a strain kept aside,
// a setting, a role and a grant.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { ensureOfficialSources } from '../../sporangium/official.ts'
import { createPluginStore, ensurePrincipal, grantRole, openStore, type Store } from '../../store/index.ts'
import { createRole, roleNamed } from '../../store/role-admin.ts'
import { sporeData, sporeMigrations, sporeSchedules } from '../../store/schema/index.ts'
import { writeStrainRow } from '../../store/strain-rows.ts'
import { ROOT, writeSpore } from '../boot/process.ts'

export interface BotFolder {
  readonly folder: string
  readonly config: string
  readonly database: string
  readonly data: string
}

/** The installed enzyme: `/greet` answers with its own catalogue line. */
export function greeterSpore(folder: string, line: string): string {
  return writeSpore(folder, 'greeter', {
    'spore.yaml':
      'kind: enzyme\nname: greeter\nseptum: "^1.0"\ncommands:\n  - name: greet\n    description: greet.description\n    respond: greet.answer\n',
    'translations/en.yaml': `greet:\n  description: Greets.\n  answer: "${line}"\n`,
    'translations/fr.yaml': `greet:\n  description: Salue.\n  answer: "${line}"\n`,
  })
}

export function botFolder(parent: string, name: string): BotFolder {
  const folder = join(parent, name)
  const spores = join(folder, 'spores')
  mkdirSync(spores, { recursive: true })
  cpSync(join(ROOT, 'spores', 'console', 'spore.yaml'), join(spores, 'console', 'spore.yaml'))
  cpSync(join(ROOT, 'spores', 'console', 'src'), join(spores, 'console', 'src'), { recursive: true })
  const config = join(folder, 'mycelo.yaml')
  writeFileSync(config, 'spores: [spores, data/spores]\ndatabase: data/mycelo.db\n')
  return { folder, config, database: join(folder, 'data', 'mycelo.db'), data: join(folder, 'data') }
}

/** Seeds what a restore must give back: the console's setting, a role with a grant, an install. */
export function seedBot(bot: BotFolder): void {
  greeterSpore(join(bot.data, 'spores'), 'hello from the greeter')
  // Where an upgrade keeps the strain it replaced, for a rollback.
  greeterSpore(join(bot.data, 'previous'), 'an older greeter')
  withStore(bot.database, (store) => {
    ensureOfficialSources(store)
    writeStrainRow(store, 'greeter', {
      enabled: true,
      reason: null,
      sourceId: 'official',
      strain: '1.0.0',
      previousSourceId: 'official',
      previousStrain: '0.9.0',
    })
    // Once a row exists, a spore without one is a newcomer, left disabled: the console gets its own.
    createPluginStore(store).recordInstall('console', { enabled: true, reason: null })
    createPluginStore(store).setSetting('console', 'interactive', 'always')
    createRole(store, 'moviegoer', ['greeter.*', 'help.*'])
    const friend = ensurePrincipal(store, { channel: 'chat', externalId: 'friend' }).id
    grantRole(store, friend, roleNamed(store, 'moviegoer')!.id)
    // What the greeter stored (septum 1.1): entries, an applied migration and a schedule.
    store.db
      .insert(sporeData)
      .values([
        { spore: 'greeter', key: 'greeted', value: '3' },
        { spore: 'greeter', key: 'last', value: '{"who":"friend"}' },
      ])
      .run()
    store.db.insert(sporeMigrations).values({ spore: 'greeter', version: 1 }).run()
    store.db
      .insert(sporeSchedules)
      .values({
        spore: 'greeter',
        id: 'daily',
        cron: '0 9 * * *',
        timeZone: 'UTC',
        missedPolicy: 'skip',
        nextAt: 1,
      })
      .run()
  })
}

/** The greeter's stored entries, migrations and schedules, as a restore must give them back. */
export function heldData(store: Store) {
  const greeter = <T extends typeof sporeData | typeof sporeMigrations | typeof sporeSchedules>(table: T) =>
    store.db.select().from(table).where(eq(table.spore, 'greeter')).all()
  return {
    entries: greeter(sporeData).map((row) => [row.key, row.value]),
    migrations: greeter(sporeMigrations).map((row) => row.version),
    schedules: greeter(sporeSchedules).map((row) => [row.id, row.cron]),
  }
}

export function withStore<T>(database: string, work: (store: Store) => T): T {
  mkdirSync(join(database, '..'), { recursive: true })
  const store = openStore({ path: database })
  try {
    return work(store)
  } finally {
    store.close()
  }
}
