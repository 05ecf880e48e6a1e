import type { HyphaContext, IncomingMessage, Logger } from '@mycelo/septum'
import { manualSchedule, memoryStorage } from '@mycelo/septum/conformance'
import type { DiscordConfig } from '../src/config.ts'
import { DiscordHypha } from '../src/hypha.ts'
import { type FakeDiscord, type FakeDiscordOptions, startFakeDiscord } from './fake/index.ts'
import { Recorder } from './fake/recorder.ts'

export interface LogLine {
  readonly level: 'debug' | 'info' | 'warn' | 'error'
  readonly message: string
  readonly meta?: Readonly<Record<string, unknown>>
}

/** A logger that keeps every line, for tests to wait on. */
export function recordingLogger(lines: Recorder<LogLine>): Logger {
  const logger: Logger = {
    debug: (message, meta) => lines.add({ level: 'debug', message, ...(meta === undefined ? {} : { meta }) }),
    info: (message, meta) => lines.add({ level: 'info', message, ...(meta === undefined ? {} : { meta }) }),
    warn: (message, meta) => lines.add({ level: 'warn', message, ...(meta === undefined ? {} : { meta }) }),
    error: (message, meta) => lines.add({ level: 'error', message, ...(meta === undefined ? {} : { meta }) }),
    child: () => logger,
  }
  return logger
}

export interface ContextRecords {
  readonly emitted: Recorder<IncomingMessage>
  readonly logs: Recorder<LogLine>
}

export function hyphaContext(config: DiscordConfig, records: ContextRecords): HyphaContext<DiscordConfig> {
  return {
    config,
    logger: recordingLogger(records.logs),
    rhiza: <T>() => ({}) as T,
    has: () => false,
    storage: memoryStorage(),
    schedule: manualSchedule(),
    emit: async (message) => records.emitted.add(message),
  }
}

export interface Rig extends ContextRecords {
  readonly fake: FakeDiscord
  readonly hypha: DiscordHypha
  readonly config: DiscordConfig
  stop(): Promise<void>
}

/** A fake Discord and a hypha connected to it through its settings, as the core would configure it. */
export async function connectedRig(
  options: { fake?: FakeDiscordOptions; config?: Partial<DiscordConfig>; listen?: boolean } = {},
): Promise<Rig> {
  const fake = startFakeDiscord({ heartbeatInterval: 500, ...options.fake })
  const config: DiscordConfig = { token: fake.token, apiBaseUrl: fake.restApi, ...options.config }
  const records: ContextRecords = { emitted: new Recorder(), logs: new Recorder() }
  const hypha = new DiscordHypha()
  try {
    await hypha.connect(hyphaContext(config, records))
    if (options.listen !== false) await hypha.listen()
  } catch (error) {
    await fake.stop()
    throw error
  }
  return {
    ...records,
    fake,
    hypha,
    config,
    async stop() {
      await hypha.stop()
      await fake.stop()
    },
  }
}
