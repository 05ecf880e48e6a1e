// The real start-up (config file, migrated SQLite file, germination, lifecycle) over real spore
// folders copied from the repository, for end-to-end tests of a channel and for the benchmarks.
// Unlike startTestCore it adds no test hypha: the channels are the spores being tested.
import { basename, join } from 'node:path'
import { createLogging } from '../../boot/log.ts'
import type { Clock } from '../../schedule/clock.ts'
import { writeSpore } from '../boot/process.ts'
import { scratchFolder } from '../store/scratch.ts'
import { type BootedCore, bootInFolder, type Seed, seedStore } from './boot.ts'
import { realSpore } from './real-spores.ts'

export interface CoreWithOptions extends Seed {
  /** Spore folders to copy in whole (their manifest, sources and catalogues), by absolute path. */
  readonly sporeFolders?: readonly string[]
  /** Spores written from text: name → file path → contents. */
  readonly spores?: Record<string, Record<string, string>>
  /** Extra mycelo.yaml lines (spores and database are set here). */
  readonly config?: string
  /** `debug` unless given; a benchmark logs less. */
  readonly logLevel?: string
  /** A folder the caller owns, to start again on what an earlier core left; kept at stop. */
  readonly folder?: string
  /** The time schedules run by; the system's unless given. */
  readonly clock?: Clock
}

/** One pino line, parsed: `msg` is the message, the rest its level, time and meta. */
export type LogRecord = Record<string, unknown> & { readonly msg?: string }

export interface CoreWith {
  readonly folder: string
  readonly running: BootedCore
  logs(): LogRecord[]
  /** The first log line, already written or still to come, whose message is `msg`. */
  waitForLog(msg: string, timeoutMs?: number): Promise<LogRecord>
  stop(): Promise<void>
}

/** Boots the core the way `bun core/boot/main.ts` does, minus the process signals. */
export async function startCoreWith(options: CoreWithOptions): Promise<CoreWith> {
  const scratch = options.folder ? { path: options.folder, remove() {} } : scratchFolder('e2e')
  const folder = scratch.path
  const sporesDir = join(folder, 'spores')
  for (const source of options.sporeFolders ?? []) writeSpore(sporesDir, basename(source), realSpore(source))
  for (const [name, files] of Object.entries(options.spores ?? {})) writeSpore(sporesDir, name, files)
  const lines: string[] = []
  const logging = createLogging({
    level: options.logLevel ?? 'debug',
    pretty: false,
    output: { write: (line) => lines.push(line) },
  })
  const running = await bootInFolder({
    folder,
    config: `spores: [spores]\ndatabase: mycelo.db\n${options.config ?? ''}`,
    logging,
    prepare: seedStore(options),
    ...(options.clock ? { clock: options.clock } : {}),
  }).catch((error: unknown) => {
    scratch.remove()
    throw error
  })
  const logs = () => lines.map((line) => JSON.parse(line) as LogRecord)
  return {
    folder,
    running,
    logs,
    async waitForLog(msg, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const found = logs().find((line) => line.msg === msg)
        if (found !== undefined) return found
        if (Date.now() > deadline) throw new Error(`the core logged no "${msg}" within ${timeoutMs} ms`)
        await Bun.sleep(20)
      }
    },
    async stop() {
      await running.stop()
      scratch.remove()
    },
  }
}
