import { afterEach, beforeEach } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import type { Logger, PluginKind } from '@mycelo/septum'
import { manualSchedule, memoryStorage } from '@mycelo/septum/conformance'
import { stringify } from 'yaml'
import {
  type ContextFactory,
  type GerminatedSpore,
  type Germination,
  germinate,
  type InstallMemory,
  type InstallState,
  type PluginStorePort,
  sporeContext,
} from '../../germination/index.ts'
import { createPluginStore, openStore, type PluginStore, type Store } from '../../store/index.ts'
import { installRecords } from '../../store/install-rows.ts'

// Inside the repository, so a spore's imports of @mycelo/septum and zod resolve through its node_modules.
const TEMP_ROOT = resolve(import.meta.dir, '../../../.test-tmp')

export async function makeRoot(): Promise<string> {
  await mkdir(TEMP_ROOT, { recursive: true })
  return mkdtemp(join(TEMP_ROOT, 'germination-'))
}

/** A fresh folder for every test of the file that calls it, removed after each; read it with the answer. */
export function scratchRoot(): () => string {
  let root = ''
  beforeEach(async () => {
    root = await makeRoot()
  })
  afterEach(async () => {
    closeStores()
    await removeRoot(root)
  })
  return () => root
}

export async function removeRoot(root: string): Promise<void> {
  await rm(root, { recursive: true, force: true })
}

export interface SporeFiles {
  /** spore.yaml: an object is written as YAML, a string as-is. */
  readonly manifest: object | string
  /** Further files, by path relative to the spore's folder. */
  readonly files?: Readonly<Record<string, string>>
}

/** Writes a spore into folder/dir and answers its path. */
export async function writeSpore(folder: string, dir: string, spore: SporeFiles): Promise<string> {
  const root = join(folder, dir)
  const files = {
    'spore.yaml': typeof spore.manifest === 'string' ? spore.manifest : stringify(spore.manifest),
    ...spore.files,
  }
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true })
    await writeFile(join(root, path), text)
  }
  return root
}

/** A valid manifest of the kind, targeting the running septum. */
export function manifestOf(kind: PluginKind, name: string, extra: Record<string, unknown> = {}): object {
  const perKind: Record<PluginKind, object> = {
    hypha: { capabilities: [] },
    rhiza: {},
    enzyme: { commands: [{ name: 'go', description: 'command.go', code: 'go' }] },
    inhibitor: {},
  }
  return { kind, name, septum: '^1.0', ...perKind[kind], ...extra }
}

export interface Behaviour {
  /** The method (create or a lifecycle one) that throws `${name} ${method} broke`. */
  readonly fail?: string
  /** A stop() that never settles. */
  readonly hangOnStop?: boolean
}

/**
 * A module for every kind that writes create() and each lifecycle call as `name:method` into the
 * journal the test installs on globalThis, so the test can assert their order across spores.
 */
export function lifecycleModule(kind: PluginKind, name: string, behaviour: Behaviour = {}): string {
  const methods: Record<PluginKind, string[]> = {
    hypha: ['connect', 'listen', 'stop'],
    rhiza: ['start', 'stop'],
    enzyme: ['start', 'stop'],
    inhibitor: ['start', 'stop'],
  }
  const body = (method: string) => {
    const fail = behaviour.fail === method ? `throw new Error('${name} ${method} broke')` : ''
    const hang = method === 'stop' && behaviour.hangOnStop ? 'await new Promise(() => {})' : ''
    return `async ${method}() { globalThis.germinationJournal?.push('${name}:${method}'); ${fail}; ${hang} },`
  }
  const extras: Record<PluginKind, string> = {
    hypha: 'async send() {},',
    rhiza: `async health() { return { state: 'healthy', checkedAt: new Date() } }, api: { owner: '${name}' },`,
    enzyme: 'handlers: { go() {} },',
    inhibitor: 'inspect: () => ({ allow: true }),',
  }
  const create = behaviour.fail === 'create' ? `throw new Error('${name} create broke')` : ''
  return `export default {
  create() {
    globalThis.germinationJournal?.push('${name}:create'); ${create}
    return { ${methods[kind].map(body).join(' ')} ${extras[kind]} }
  },
}
`
}

/** The journal lifecycle modules write to; reset before each germination that uses it. */
export function resetJournal(): string[] {
  const journal: string[] = []
  ;(globalThis as { germinationJournal?: string[] }).germinationJournal = journal
  return journal
}

/** The stores opened by the running test: closed and deleted with its scratch folder. */
const openStores: { store: Store; dir: string }[] = []

function closeStores(): void {
  for (const { store, dir } of openStores.splice(0)) {
    store.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * The real plugin store over a real SQLite file, with the views the tests read: `rows` (every
 * install row) and `settings.set(plugin, values)` (settings written before germination).
 */
export class SqliteStore implements PluginStorePort {
  readonly #store: Store
  readonly #plugins: PluginStore

  constructor() {
    mkdirSync(TEMP_ROOT, { recursive: true })
    const dir = mkdtempSync(join(TEMP_ROOT, 'germination-db-'))
    this.#store = openStore({ path: join(dir, 'mycelo.db') })
    openStores.push({ store: this.#store, dir })
    this.#plugins = createPluginStore(this.#store)
  }

  /** A store past its first start, on which these spores are enabled: their faults show as dormancy. */
  static enabling(...names: string[]): SqliteStore {
    const store = new SqliteStore()
    for (const name of names) store.recordInstall(name, { enabled: true, reason: null })
    return store
  }

  get rows(): ReadonlyMap<string, InstallState> {
    const rows = new Map<string, InstallState>()
    for (const [name, row] of installRecords(this.#store))
      rows.set(name, { enabled: row.enabled, reason: row.reason })
    return rows
  }

  readonly settings = {
    set: (plugin: string, values: Record<string, unknown>): void => {
      for (const [key, value] of Object.entries(values)) this.#plugins.setSetting(plugin, key, value)
    },
  }

  isFresh(): boolean {
    return this.#plugins.isFresh()
  }
  installOf(name: string): InstallState | undefined {
    return this.#plugins.installOf(name)
  }
  recordInstall(name: string, state: InstallState): void {
    this.#plugins.recordInstall(name, state)
  }
  recordDiscovered(...args: Parameters<PluginStorePort['recordDiscovered']>): void {
    this.#plugins.recordDiscovered(...args)
  }
  memoryOf(name: string): InstallMemory | undefined {
    return this.#plugins.memoryOf(name)
  }
  rememberedGuards(): readonly string[] {
    return this.#plugins.rememberedGuards()
  }
  settingsOf(name: string): Record<string, unknown> {
    return this.#plugins.settingsOf(name)
  }
}

export interface LogEntry {
  readonly level: 'debug' | 'info' | 'warn' | 'error'
  readonly message: string
  readonly meta: Readonly<Record<string, unknown>> | undefined
  readonly bindings: Readonly<Record<string, unknown>>
}

export interface MemoryLogger extends Logger {
  readonly entries: LogEntry[]
}

/** A logger that keeps every line, with the bindings of the child it was written through. */
export function memoryLogger(
  bindings: Readonly<Record<string, unknown>> = {},
  entries: LogEntry[] = [],
): MemoryLogger {
  const write = (level: LogEntry['level']) => (message: string, meta?: Readonly<Record<string, unknown>>) => {
    entries.push({ level, message, meta, bindings })
  }
  return {
    entries,
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    child: (more) => memoryLogger({ ...bindings, ...more }, entries),
  }
}

/** The mycelium surface the test contexts hand out: it names the spore that asked. */
export const myceliumFor = (spore: GerminatedSpore) => ({ askedBy: spore.name })

/** Base contexts from sporeContext, with inert kind-specific members. */
/** Storage and schedules for a hand-built context, each spore its own, in memory. */
export const memoryHoldings = {
  storage: () => memoryStorage(),
  schedule: () => manualSchedule(),
}

export function testContexts(germination: Germination, logger: Logger): ContextFactory {
  // Storage and schedules of their own, in memory: these tests are about germination's order.
  const held = new Map<
    string,
    { storage: ReturnType<typeof memoryStorage>; schedule: ReturnType<typeof manualSchedule> }
  >()
  const holding = (name: string) => {
    let found = held.get(name)
    if (found === undefined) {
      found = { storage: memoryStorage(), schedule: manualSchedule() }
      held.set(name, found)
    }
    return found
  }
  const base = (spore: GerminatedSpore) =>
    sporeContext(spore, {
      germination,
      logger,
      mycelium: myceliumFor,
      storage: (s) => holding(s.name).storage,
      schedule: (s) => holding(s.name).schedule,
    })
  const translated = { t: (key: string | { key: string }) => (typeof key === 'string' ? key : key.key) }
  const capabilities = { has: () => false, list: () => [] }
  return {
    hypha: (spore) => ({ ...base(spore), emit: async () => {} }),
    rhiza: base,
    enzymeStart: (spore) => ({
      ...base(spore),
      ...translated,
      push: async () => {},
      capabilitiesOf: () => capabilities,
      on: () => {},
      localeFor: async () => 'en',
    }),
    inhibitor: (spore) => ({
      ...base(spore),
      ...translated,
      groupMembers: async () => null,
      requireCapability: () => {},
    }),
    // No migrations here: the storage tests run them through the core's own factory.
    migrate: () => undefined,
  }
}

/** Germinates one folder against a store, with a logger the test can read. */
export function germinateIn(folder: string, store: PluginStorePort = new SqliteStore()) {
  const logger = memoryLogger()
  return germinate({ folders: [folder], store, logger }).then((germination) => ({
    germination,
    logger,
    store,
  }))
}

/** A spore by name, failing the test when it is not there. */
export function sporeNamed(germination: Germination, name: string): GerminatedSpore {
  const spore = germination.byName.get(name)
  if (spore === undefined) throw new Error(`no spore named ${name}`)
  return spore
}
