import { PLUGIN_KINDS, type PluginKind, SECRET_MASK } from '@mycelo/septum'
import { and, eq, sql } from 'drizzle-orm'
import type { InstallMemory, InstallState, PluginStorePort } from '../germination/ports.ts'
import type { Store } from './open.ts'
import { pluginInstalls, pluginSettings } from './schema/index.ts'

/** One stored setting as the admin surfaces need it: the value and whether it is a secret. */
export interface StoredSetting {
  readonly value: unknown
  readonly secret: boolean
}

export interface PluginStore extends PluginStorePort {
  /**
   * Writes one setting. Writing the mask to a secret key is ignored, so a form that echoes back
   * what it was shown cannot erase the credential; a key once stored secret stays secret.
   */
  setSetting(plugin: string, key: string, value: unknown, options?: { readonly secret?: boolean }): void
  /** Removes one setting; answers whether it was stored. */
  unsetSetting(plugin: string, key: string): boolean
  settingsWithFlags(plugin: string): Record<string, StoredSetting>
  /** Every text a secret setting holds, for the log redactor. */
  secretValues(): string[]
}

export interface PluginStoreOptions {
  /** Called after a write that stored a secret, so the redactor can pick it up at once. */
  readonly onSecretWritten?: () => void
}

export function createPluginStore(store: Store, options: PluginStoreOptions = {}): PluginStore {
  const { db } = store
  const settingRow = (plugin: string, key: string) =>
    db
      .select()
      .from(pluginSettings)
      .where(and(eq(pluginSettings.plugin, plugin), eq(pluginSettings.key, key)))
      .get()

  // Asked about every spore at every start: each query is built and compiled once, not per spore.
  let statements: ReturnType<typeof prepareStatements> | undefined
  const prepared = () => {
    statements ??= prepareStatements(store)
    return statements
  }

  return {
    isFresh: () => db.select({ name: pluginInstalls.name }).from(pluginInstalls).limit(1).all().length === 0,

    installOf(name: string): InstallState | undefined {
      const row = prepared().install.get({ name })
      return row === undefined ? undefined : { enabled: row.enabled, reason: row.reason }
    },

    recordInstall(name: string, state: InstallState): void {
      prepared().decided.run({ name, enabled: state.enabled, reason: state.reason })
    },

    recordDiscovered(spores, newcomer): void {
      const { discovered, remembered } = prepared()
      const { enabled, reason, settled } = newcomer
      db.transaction(() => {
        for (const spore of spores) {
          discovered.run({ name: spore.name, enabled, reason, settled })
          if (spore.kind === undefined) continue
          remembered.run({ name: spore.name, kind: spore.kind, enforcing: spore.enforcing })
        }
      })
    },

    memoryOf(name: string): InstallMemory | undefined {
      const row = prepared().memory.get({ name })
      if (row === undefined) return undefined
      return { kind: knownKind(row.kind), enforcing: row.enforcing, settled: row.settled }
    },

    rememberedGuards(): readonly string[] {
      const rows = db
        .select({ name: pluginInstalls.name })
        .from(pluginInstalls)
        .where(
          and(
            eq(pluginInstalls.enabled, true),
            eq(pluginInstalls.lastKind, 'inhibitor'),
            eq(pluginInstalls.lastEnforcing, true),
          ),
        )
        .all()
      return rows.map((row) => row.name)
    },

    settingsOf(name: string): Record<string, unknown> {
      const rows = prepared().settings.all({ name })
      return Object.fromEntries(rows.map((row) => [row.key, JSON.parse(row.value) as unknown]))
    },

    setSetting(plugin, key, value, { secret = false } = {}): void {
      const existing = settingRow(plugin, key)
      const isSecret = secret || existing?.isSecret === true
      if (isSecret && value === SECRET_MASK) return
      const encoded = JSON.stringify(value)
      if (encoded === undefined) throw new TypeError(`setting ${plugin}.${key}: the value is not JSON`)
      db.insert(pluginSettings)
        .values({ plugin, key, value: encoded, isSecret })
        .onConflictDoUpdate({
          target: [pluginSettings.plugin, pluginSettings.key],
          set: { value: encoded, isSecret },
        })
        .run()
      if (isSecret) options.onSecretWritten?.()
    },

    unsetSetting(plugin, key): boolean {
      const removed = db
        .delete(pluginSettings)
        .where(and(eq(pluginSettings.plugin, plugin), eq(pluginSettings.key, key)))
        .returning({ key: pluginSettings.key })
        .all()
      return removed.length > 0
    },

    settingsWithFlags(plugin: string): Record<string, StoredSetting> {
      const rows = db.select().from(pluginSettings).where(eq(pluginSettings.plugin, plugin)).all()
      return Object.fromEntries(
        rows.map((row) => [row.key, { value: JSON.parse(row.value) as unknown, secret: row.isSecret }]),
      )
    },

    secretValues(): string[] {
      const rows = db
        .select({ value: pluginSettings.value })
        .from(pluginSettings)
        .where(eq(pluginSettings.isSecret, true))
        .all()
      return [...new Set(rows.flatMap((row) => textsIn(JSON.parse(row.value) as unknown)))]
    },
  }
}

function prepareStatements({ db }: Store) {
  const name = sql.placeholder('name')
  return {
    install: db
      .select({ enabled: pluginInstalls.enabled, reason: pluginInstalls.reason })
      .from(pluginInstalls)
      .where(eq(pluginInstalls.name, name))
      .prepare(),
    memory: db
      .select({
        kind: pluginInstalls.lastKind,
        enforcing: pluginInstalls.lastEnforcing,
        settled: pluginInstalls.settled,
      })
      .from(pluginInstalls)
      .where(eq(pluginInstalls.name, name))
      .prepare(),
    settings: db.select().from(pluginSettings).where(eq(pluginSettings.plugin, name)).prepare(),
    discovered: db
      .insert(pluginInstalls)
      .values({
        name,
        enabled: sql.placeholder('enabled'),
        reason: sql.placeholder('reason'),
        settled: sql.placeholder('settled'),
      })
      .onConflictDoNothing()
      .prepare(),
    /** A spore's install decided: enabled or not, and why; settled, so a later start keeps it. */
    decided: db
      .insert(pluginInstalls)
      .values({ name, enabled: sql.placeholder('enabled'), reason: sql.placeholder('reason'), settled: true })
      .onConflictDoUpdate({
        target: pluginInstalls.name,
        set: { enabled: sql`excluded.enabled`, reason: sql`excluded.reason`, settled: true },
      })
      .prepare(),
    remembered: db
      .update(pluginInstalls)
      // drizzle's set() takes a placeholder only inside sql``.
      .set({ lastKind: sql`${sql.placeholder('kind')}`, lastEnforcing: sql`${sql.placeholder('enforcing')}` })
      .where(eq(pluginInstalls.name, name))
      .prepare(),
  }
}

function knownKind(kind: string | null): PluginKind | undefined {
  return PLUGIN_KINDS.find((candidate) => candidate === kind)
}

/** The texts a value could leak as: its strings and numbers, however deeply nested. */
function textsIn(value: unknown): string[] {
  if (typeof value === 'string') return value === '' ? [] : [value]
  if (typeof value === 'number' || typeof value === 'bigint') return [String(value)]
  if (Array.isArray(value)) return value.flatMap(textsIn)
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(textsIn)
  return []
}
