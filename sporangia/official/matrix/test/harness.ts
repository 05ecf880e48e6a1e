import type { HyphaContext, IncomingMessage, Logger, SporeStorage } from '@mycelo/septum'
import { manualSchedule, memoryStorage } from '@mycelo/septum/conformance'
import { configSchema, type MatrixConfig } from '../src/config.ts'
import { MatrixHypha } from '../src/hypha.ts'
import { type FakeMatrix, startFakeMatrix } from './fake/index.ts'
import { Recorder } from './fake/recorder.ts'

export interface LogLine {
  readonly level: 'debug' | 'info' | 'warn' | 'error'
  readonly message: string
}

export interface Reported {
  readonly kind: 'up' | 'lost'
  readonly reason?: string
  readonly retry?: { readonly attempt: number; readonly inMs?: number }
}

export interface Records {
  readonly emitted: Recorder<IncomingMessage>
  readonly logs: Recorder<LogLine>
  readonly reports: Recorder<Reported>
}

export const newRecords = (): Records => ({
  emitted: new Recorder(),
  logs: new Recorder(),
  reports: new Recorder(),
})

/** Settings read through the spore's own schema, as the bot reads them; a test's bad settings throw. */
export function settingsFor(raw: Record<string, unknown>): MatrixConfig {
  const parsed = configSchema.safeParse(raw)
  if (!parsed.success) throw new Error(JSON.stringify(parsed.error.issues))
  return parsed.data
}

function recordingLogger(lines: Recorder<LogLine>): Logger {
  const line = (level: LogLine['level']) => (message: string) => lines.add({ level, message })
  const logger: Logger = {
    debug: line('debug'),
    info: line('info'),
    warn: line('warn'),
    error: line('error'),
    child: () => logger,
  }
  return logger
}

export function hyphaContext(
  config: MatrixConfig,
  records: Records,
  parts: { storage?: SporeStorage; answer?: (message: IncomingMessage) => Promise<void> } = {},
): HyphaContext<MatrixConfig> {
  return {
    config,
    logger: recordingLogger(records.logs),
    rhiza: <T>() => ({}) as T,
    has: () => false,
    storage: parts.storage ?? memoryStorage(),
    schedule: manualSchedule(),
    emit: async (message) => {
      records.emitted.add(message)
      await parts.answer?.(message)
    },
    connection: {
      up: () => records.reports.add({ kind: 'up' }),
      lost: (reason, retry) =>
        records.reports.add({ kind: 'lost', reason, ...(retry === undefined ? {} : { retry }) }),
    },
  }
}

export interface Rig extends Records {
  readonly fake: FakeMatrix
  readonly hypha: MatrixHypha
  readonly storage: SporeStorage
  stop(): Promise<void>
}

export interface RigOptions {
  readonly fake?: FakeMatrix
  readonly settings?: Record<string, unknown>
  readonly storage?: SporeStorage
  readonly answer?: (message: IncomingMessage) => Promise<void>
}

/** A fake homeserver and a hypha syncing with it quickly; the first sync (history) is waited for. */
export async function connectedRig(options: RigOptions = {}): Promise<Rig> {
  const fake = options.fake ?? startFakeMatrix()
  const config = settingsFor({
    homeserverUrl: fake.homeserverUrl,
    accessToken: fake.token,
    acceptInvites: 'listed',
    inviters: [fake.world.alice.userId],
    ...options.settings,
  })
  const records = newRecords()
  const storage = options.storage ?? memoryStorage()
  const hypha = new MatrixHypha({ backoff: { initialMs: 50, maxMs: 400 }, syncTimeoutMs: 2_000 })
  try {
    await hypha.connect(
      hyphaContext(config, records, { storage, ...(options.answer ? { answer: options.answer } : {}) }),
    )
    await hypha.listen()
    await records.logs.waitFor((line) => line.message === 'matrix: syncing')
    while ((await storage.get('sync.since')) === undefined) await Bun.sleep(5)
  } catch (error) {
    if (options.fake === undefined) await fake.stop()
    throw error
  }
  return {
    ...records,
    fake,
    hypha,
    storage,
    async stop() {
      await hypha.stop()
      if (options.fake === undefined) await fake.stop()
    },
  }
}
