/**
 * A spore host: the Bun Worker one isolated spore runs in. It imports the spore's module, calls
 * create(), and answers the core's calls over the bridge; every context the spore receives is made
 * of proxies back into the core. A fault of any kind ends this worker, never the bot.
 */
import { faultText } from '../germination/fault.ts'
import { type FoundEntry, importEntry, type LoadedModule } from '../germination/module-import.ts'
import { Bridge, type WireMessage } from './bridge.ts'
import { markConstant, markSync } from './call-kinds.ts'
import { guardImports, type ImportAllowance } from './import-guard.ts'

/** The worker's own scope: how it hears the core and answers it. */
const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent) => void) | null
  postMessage(message: unknown): void
}
const postMessage = (message: unknown) => scope.postMessage(message)

export interface HostInit {
  readonly t: 'init'
  readonly port: MessagePort
  readonly flags: Int32Array
  readonly syncMs: number
}

export interface LoadRequest {
  readonly dir: string
  /** The module's file in `dir`, found by the core. */
  readonly found: FoundEntry
  /** `dir` by its real path, resolved by the core: a host never loads node:fs for it. */
  readonly realDir: string
  readonly deadlineMs: number
  readonly fresh?: number
  readonly allow: ImportAllowance
}

let bridge: Bridge | undefined
let heapSize: (() => number) | undefined
let loaded: LoadedModule | undefined

/** What the spore said during its last turn reaches the core before the host ends, as it would inline. */
const flush = () => {
  try {
    bridge?.flush()
  } catch {
    // The core is gone already.
  }
}
process.on('exit', flush)

// What the spore cannot catch ends its host, with the fault told to the core first.
const end = (what: string, error: unknown) => {
  flush()
  postMessage({ t: 'fault', text: `${what}: ${faultText(error)}` })
  process.exit(1)
}
process.on('uncaughtException', (error) => end('uncaught exception', error))
process.on('unhandledRejection', (error) => end('unhandled rejection', error))

const root = {
  async load(request: LoadRequest) {
    guardImports(request.allow, request.realDir)
    const loading = await importEntry(request.dir, request.found, request)
    // Worded by the core: the words, and what a reader's language makes of them, live there.
    if (!loading.ok) return { refused: loading.refusal }
    loaded = loading.module
    if (loaded === undefined) return { module: false }
    const { configSchema, migrations, operations } = loaded.exported
    return {
      module: true,
      entry: loaded.entry,
      // The core never waits blocked on a schema: safeParse is asked like any call (within a deadline,
      // the host ended if it cannot answer), and the JSON Schema crosses once as data.
      ...(configSchema
        ? {
            schema: {
              safeParse: (input: unknown) => configSchema.safeParse(input),
              ...(configSchema.toJsonSchema
                ? { toJsonSchema: markConstant(() => configSchema.toJsonSchema?.()) }
                : {}),
              ...(configSchema.secrets ? { secrets: [...configSchema.secrets] } : {}),
            },
          }
        : {}),
      ...(migrations
        ? {
            migrations: migrations.map((migration) => ({
              version: migration.version,
              ...(migration.description === undefined ? {} : { description: migration.description }),
              up: markSync((tx: unknown) => migration.up(tx as Parameters<typeof migration.up>[0])),
            })),
          }
        : {}),
      // Schemas are worked in the host: the core gets their JSON Schema and asynchronous checks. Their
      // libraries (Effect alone is some 16 MiB a worker) load only in a host whose spore has operations.
      ...(operations === undefined
        ? {}
        : {
            operations: (await import('../agent/hosted-operations.ts')).hostedOperations(
              operations,
              markConstant,
            ),
          }),
    }
  },
  async create() {
    if (loaded === undefined) throw new Error('create() was asked before the module was loaded')
    return loaded.exported.create()
  },
  /**
   * This worker's own heap, external memory (array buffers) included: what the core's memory ceiling
   * reads. heapSize() already counts it, and costs a microsecond where heapStats() walks every object
   * (0.7 ms, asked each second of every host).
   */
  async heap() {
    // Loaded at the first ask, a second after the host was created, not while it starts.
    heapSize ??= (require('bun:jsc') as typeof import('bun:jsc')).heapSize
    return heapSize()
  },
}

/** A storage transaction's work runs inside the core's SQLite transaction: it is called synchronously. */
function adapt(value: Record<string, unknown>): Record<string, unknown> {
  const transaction = value.transaction
  if (typeof transaction !== 'function' || typeof value.get !== 'function') return value
  return { ...value, transaction: (work: object) => transaction(markSync(work)) }
}

scope.onmessage = (event: MessageEvent) => {
  const data = event.data as HostInit | WireMessage | string
  if (typeof data !== 'string' && data.t === 'init') {
    bridge = new Bridge({
      post: (message) => postMessage(message),
      hold: true,
      port: data.port,
      flags: data.flags,
      side: 1,
      syncMs: data.syncMs,
      adapt,
    })
    postMessage({ t: 'ready', root: bridge.out(root, 'api') })
    return
  }
  bridge?.receive(data)
}
