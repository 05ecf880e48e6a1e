import type { HyphaContext, IncomingMessage, Logger } from '@mycelo/septum'
import { manualSchedule, memoryStorage } from '@mycelo/septum/conformance'
import type { SignalConfig } from '../../src/config.ts'
import { Recorder } from './recorder.ts'

export interface LogLine {
  readonly level: 'debug' | 'info' | 'warn' | 'error'
  readonly message: string
  readonly meta?: Readonly<Record<string, unknown>>
}

/** What the core would hand a hypha, recording what the hypha emits and logs. */
export interface RecordingContext {
  readonly context: () => HyphaContext<SignalConfig>
  readonly emitted: Recorder<IncomingMessage>
  readonly logs: Recorder<LogLine>
}

export function recordingContext(config: SignalConfig): RecordingContext {
  const emitted = new Recorder<IncomingMessage>()
  const logs = new Recorder<LogLine>()
  const logger: Logger = {
    debug: (message, meta) => logs.add({ level: 'debug', message, ...(meta === undefined ? {} : { meta }) }),
    info: (message, meta) => logs.add({ level: 'info', message, ...(meta === undefined ? {} : { meta }) }),
    warn: (message, meta) => logs.add({ level: 'warn', message, ...(meta === undefined ? {} : { meta }) }),
    error: (message, meta) => logs.add({ level: 'error', message, ...(meta === undefined ? {} : { meta }) }),
    child: () => logger,
  }
  const context = (): HyphaContext<SignalConfig> => ({
    config,
    logger,
    rhiza: <T>() => ({}) as T,
    has: () => false,
    storage: memoryStorage(),
    schedule: manualSchedule(),
    emit: async (message) => emitted.add(message),
  })
  return { context, emitted, logs }
}

/** Polls until `probe` answers something truthy; rejects, naming `what`, when it never does. */
export async function eventually<T>(
  probe: () => T | Promise<T>,
  what: string,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`)
    await Bun.sleep(10)
  }
}
