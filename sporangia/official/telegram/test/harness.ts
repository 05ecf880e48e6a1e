import type { HyphaContext, IncomingMessage, Logger, SporeStorage } from '@mycelo/septum'
import { manualSchedule, memoryStorage } from '@mycelo/septum/conformance'
import { configSchema, type TelegramConfig } from '../src/config.ts'
import { TelegramHypha, type TelegramHyphaOptions } from '../src/hypha.ts'
import { type FakeTelegram, startFakeTelegram } from './fake/index.ts'
import { Recorder } from './fake/recorder.ts'

/** Settings read through the spore's own schema, as the bot reads them; a test's bad settings throw. */
export function settingsFor(raw: Record<string, unknown>): TelegramConfig {
  const parsed = configSchema.safeParse(raw)
  if (!parsed.success) throw new Error(JSON.stringify(parsed.error.issues))
  return parsed.data
}

export interface LogLine {
  readonly level: 'debug' | 'info' | 'warn' | 'error'
  readonly message: string
  readonly meta?: Readonly<Record<string, unknown>>
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

export function newRecords(): Records {
  return { emitted: new Recorder(), logs: new Recorder(), reports: new Recorder() }
}

function recordingLogger(lines: Recorder<LogLine>): Logger {
  const line = (level: LogLine['level']) => (message: string, meta?: Readonly<Record<string, unknown>>) =>
    lines.add({ level, message, ...(meta === undefined ? {} : { meta }) })
  const logger: Logger = {
    debug: line('debug'),
    info: line('info'),
    warn: line('warn'),
    error: line('error'),
    child: () => logger,
  }
  return logger
}

export interface ContextParts {
  readonly storage?: SporeStorage
  readonly mycelium?: unknown
  /** Runs while the core would be handling each message, as a command's reply does. */
  readonly answer?: (message: IncomingMessage) => Promise<void>
}

/** The context the core hands the hypha: settings read through its schema, reports recorded. */
export function hyphaContext(
  config: TelegramConfig,
  records: Records,
  parts: ContextParts = {},
): HyphaContext<TelegramConfig> {
  return {
    config,
    logger: recordingLogger(records.logs),
    rhiza: <T>() => (parts.mycelium ?? {}) as T,
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
  readonly fake: FakeTelegram
  readonly hypha: TelegramHypha
  readonly config: TelegramConfig
  readonly storage: SporeStorage
  stop(): Promise<void>
}

export interface RigOptions {
  readonly fake?: FakeTelegram
  readonly settings?: Record<string, unknown>
  readonly storage?: SporeStorage
  readonly mycelium?: unknown
  readonly answer?: ContextParts['answer']
  readonly listen?: boolean
  /** Past the quick polling and backoff every rig gets. */
  readonly hypha?: TelegramHyphaOptions
}

/** A fake Telegram and a hypha connected to it through its settings, polling quickly. */
export async function connectedRig(options: RigOptions = {}): Promise<Rig> {
  const fake = options.fake ?? startFakeTelegram()
  const config = settingsFor({ token: fake.token, apiRoot: fake.apiRoot, ...options.settings })
  const records = newRecords()
  const storage = options.storage ?? memoryStorage()
  const hypha = new TelegramHypha({
    backoff: { initialMs: 50, maxMs: 400 },
    pollTimeoutSeconds: 2,
    ...options.hypha,
  })
  try {
    await hypha.connect(
      hyphaContext(config, records, {
        storage,
        mycelium: options.mycelium,
        ...(options.answer ? { answer: options.answer } : {}),
      }),
    )
    if (options.listen !== false) await hypha.listen()
  } catch (error) {
    if (options.fake === undefined) await fake.stop()
    throw error
  }
  return {
    ...records,
    fake,
    hypha,
    config,
    storage,
    async stop() {
      await hypha.stop()
      if (options.fake === undefined) await fake.stop()
    },
  }
}
