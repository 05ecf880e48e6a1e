// The process entry: `bun core/boot/main.ts [--check [--json]]`, which `bun run start` runs.
import type { Logger } from '@mycelo/septum'
import { parseArguments } from './arguments.ts'
import { type CoreText, coreCatalogues, coreText } from './catalogues.ts'
import { loadConfig, type MyceloConfig } from './config.ts'
import { guardProcessEnd, type ProcessEnd } from './exit-guard.ts'
import { faultParts } from './fault-log.ts'
import { createLogging, type Logging, writeOrDrop } from './log.ts'
import { releaseAfterStartUp } from './release-pages.ts'
import { refusalJson, reportJson, reportText } from './report-text.ts'
import { type Running, startUp } from './startup.ts'

const STDOUT = 1
const STDERR = 2
const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']

// Written synchronously so that nothing is lost when the process exits right after. A reader that
// went away (`npm start | tee log`: Ctrl-C ends tee too) loses the line; it must not stop the bot
// from stopping.
const print = (fd: number, text: string) => writeOrDrop(fd, text.endsWith('\n') ? text : `${text}\n`)

const catalogs = coreCatalogues().core

async function main(argv: readonly string[]): Promise<number | undefined> {
  const english = coreText(catalogs, 'en')
  const parsed = parseArguments(argv)
  if (!parsed.ok) {
    const message =
      parsed.refusal === 'unknownOption'
        ? english('boot.unknownOption', { option: parsed.option })
        : english('boot.jsonNeedsCheck')
    print(STDERR, message)
    return 2
  }
  const { check, json, help } = parsed.value
  if (help) {
    print(STDOUT, english('boot.usage'))
    return 0
  }
  // A check's output is for a person or a script reading standard output: its logs go aside.
  const asked = process.env.MYCELO_LOG_LEVEL ?? 'info'
  const level = LOG_LEVELS.includes(asked) ? asked : 'info'
  const logging = createLogging({ level, fd: check ? STDERR : STDOUT })
  if (level !== asked)
    logging.logger.warn(`MYCELO_LOG_LEVEL "${asked}" is not one of ${LOG_LEVELS.join(', ')}; using info`)
  const logFile = check ? undefined : openLogFile(logging)
  // Before any spore's module is imported: from here on only the core may end the process.
  end = guardProcessEnd(logging.logger)
  let started: Awaited<ReturnType<typeof startUp>>
  try {
    started = await startUp({ logging, check })
  } catch (error) {
    // Not a refusal an operator can act on but a fault: still reported in the form asked for, in a
    // sentence; the stack goes to the log only.
    const { summary, detail } = faultParts(error)
    logging.logger.error('start-up failed', { error: detail })
    if (json) print(STDOUT, refusalJson(summary))
    // The terminal is where the operator is looking: a fault is not left in the file alone.
    if (logFile) print(STDERR, english('boot.refused', { reason: summary }))
    return 1
  }
  if (!started.ok) {
    const t = coreText(catalogs, started.config?.defaultLocale ?? 'en')
    if (json) print(STDOUT, refusalJson(started.error))
    else print(STDERR, t('boot.refused', { reason: started.error }))
    return 1
  }
  const running = started.value
  const t = coreText(catalogs, running.config.defaultLocale)
  const lines = running.report()
  const { warnings } = running.germination
  const live = lines.filter((line) => line.state === 'live').length
  if (check) {
    if (json) print(STDOUT, reportJson(lines, warnings))
    else {
      print(
        STDOUT,
        reportText(lines, {
          t,
          locale: running.config.defaultLocale,
          folders: running.config.spores,
          warnings,
        }),
      )
      print(STDOUT, t('boot.couldStart', { live, total: lines.length }))
    }
    running.store.close()
    return 0
  }
  // Signals are taken before anything says the bot runs: a Ctrl-C the moment it does must stop it cleanly.
  keepRunning(running, { t, logger: logging.logger })
  print(
    STDOUT,
    reportText(lines, { t, locale: running.config.defaultLocale, folders: running.config.spores, warnings }),
  )
  // Degraded: nothing runs, but the page answers so the refusal can be fixed from there.
  if (running.refused !== undefined && running.http !== undefined) {
    print(STDOUT, t('boot.degraded', { reason: running.refused, url: running.http.url }))
    return undefined
  }
  print(STDOUT, t('boot.running', { live, total: lines.length }))
  // Start-up's code (parsing, migrations, germination) ran once: its compiled form and the memory
  // it freed are handed back now rather than held for the bot's whole life (about 11 MiB of RSS).
  // Deprecated in Bun's types: where a later Bun drops it, the bot simply keeps that memory.
  ;(Bun as { shrink?: () => void }).shrink?.()
  releaseAfterStartUp(logging.logger)
  return undefined
}

/**
 * Sends the logs to the file mycelo.yaml names, if any, and says so once. The configuration is
 * read ahead of start-up so that start-up's own lines go there too; one that cannot be read is
 * left for start-up to report.
 */
function openLogFile(logging: Logging): string | undefined {
  let config: MyceloConfig
  try {
    config = loadConfig()
  } catch {
    return undefined
  }
  const { file, maxBytes, keep } = config.log
  if (file === undefined) return undefined
  const t = coreText(catalogs, config.defaultLocale)
  try {
    logging.toFile({ file, maxBytes, keep })
  } catch (error) {
    print(STDERR, t('boot.logFileFailed', { file, reason: (error as Error).message }))
    return undefined
  }
  print(STDOUT, t('boot.logFile', { file }))
  return file
}

/** Runs until SIGINT or SIGTERM, then stops in reverse and exits 0; a second signal exits at once. */
function keepRunning(running: Running, { t, logger }: { t: CoreText; logger: Logger }): void {
  // Nothing may hold the event loop open yet (a console that reads no terminal, no HTTP server).
  const keepAlive = setInterval(() => undefined, 1 << 30)
  let stopping = false
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) end.exit(1)
    stopping = true
    print(STDOUT, t('boot.stopping', { signal }))
    running
      .stop()
      .then(
        () => {
          print(STDOUT, t('boot.stopped'))
          end.exit(0)
        },
        (error: unknown) => {
          logger.error('shut-down failed', { error: String(error) })
          end.exit(1)
        },
      )
      .finally(() => clearInterval(keepAlive))
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  // A spore's stray throw is logged with what is known of it; it never takes the bot down.
  process.on('unhandledRejection', (reason) =>
    logger.error('unhandled rejection', { error: describe(reason) }),
  )
  process.on('uncaughtException', (error) => logger.error('uncaught exception', { error: describe(error) }))
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error)
}

/** The process's own exit until the guard is taken; the guarded one after. */
let end: ProcessEnd = { exit: (code) => process.exit(code) }

const code = await main(process.argv.slice(2))
if (code !== undefined) end.exit(code)
