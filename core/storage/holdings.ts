import type { GerminatedSpore } from '../germination/ports.ts'
import type { Scheduler } from '../schedule/scheduler.ts'
import { SporeScheduleView } from '../schedule/spore-schedule.ts'
import type { Store } from '../store/open.ts'
import { runMigrations } from './migrations.ts'
import { quotaOf, type StorageQuotas } from './quota.ts'
import { purgeSporeData } from './rows.ts'
import { SqliteSporeStorage } from './spore-storage.ts'

export interface HoldingsOptions {
  readonly store: Store
  readonly quotas: StorageQuotas
  readonly scheduler: Scheduler
  /** The time zone a schedule naming none uses. */
  readonly timeZone: string
}

/**
 * What each spore holds in the bot's database: its storage namespace and its schedules. A schedule
 * view belongs to one germinated self of a spore: its next self (a reload) gets a new one.
 */
export class SporeHoldings {
  readonly #options: HoldingsOptions
  readonly #views = new Map<string, { readonly spore: GerminatedSpore; readonly view: SporeScheduleView }>()

  constructor(options: HoldingsOptions) {
    this.#options = options
  }

  get scheduler(): Scheduler {
    return this.#options.scheduler
  }

  storageOf(name: string): SqliteSporeStorage {
    const { store, quotas } = this.#options
    return new SqliteSporeStorage({ store, spore: name, quotaBytes: quotaOf(quotas, name) })
  }

  /** The schedule of this self of the spore; a former self's handlers are detached first. */
  scheduleOf(spore: GerminatedSpore): SporeScheduleView {
    const held = this.#views.get(spore.name)
    if (held?.spore === spore) return held.view
    held?.view.dispose()
    const { scheduler, timeZone } = this.#options
    const view = new SporeScheduleView({ scheduler, spore: spore.name, timeZone })
    this.#views.set(spore.name, { spore, view })
    return view
  }

  /** A spore stopping: its schedule handlers are detached (its rows stay). */
  release(spore: GerminatedSpore): void {
    const held = this.#views.get(spore.name)
    if (held?.spore === spore) held.view.dispose()
  }

  /** Its pending storage migrations, run before it starts: the reason it must not, if one failed. */
  migrate(spore: GerminatedSpore): string | undefined {
    const outcome = runMigrations({
      store: this.#options.store,
      spore: spore.name,
      storage: this.storageOf(spore.name),
      migrations: spore.migrations,
    })
    return outcome.ok ? undefined : outcome.reason
  }

  /** An uninstall that does not keep the data: entries, applied migrations and schedules go. */
  purge(name: string): { entries: number; schedules: number } {
    const held = this.#views.get(name)
    held?.view.dispose()
    this.#views.delete(name)
    return purgeSporeData(this.#options.store.db, name)
  }
}
