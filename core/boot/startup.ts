import {
  type Germination,
  type ReportLine,
  report,
  StartupRefusal,
  startAll,
  stopAll,
} from '../germination/index.ts'
import { hostKeeper } from '../hosts/keeper.ts'
import type { LogTap } from '../http/api/events.ts'
import { MetricsRegistry } from '../http/metrics.ts'
import { type HttpServer, startHttp } from '../http/server.ts'
import type { Clock } from '../schedule/clock.ts'
import { cleanFolders, foldersOf } from '../sporangium/staging/folders.ts'
import type { PluginStore, Store } from '../store/index.ts'
import { raceDeadline } from '../supervision/deadline.ts'
import { coreCatalogues } from './catalogues.ts'
import type { MyceloConfig } from './config.ts'
import { degradedGermination } from './degraded.ts'
import { germinateConfigured } from './germinating.ts'
import type { Logging } from './log.ts'
import { openBot } from './opening.ts'
import { type Assembly, assembleRuntime } from './runtime.ts'

export interface StartUpOptions {
  readonly logging: Pick<Logging, 'logger' | 'setSecrets'> & Partial<Pick<Logging, 'tap'>>
  /** Germinate only, on a copy of the database: nothing is started and nothing is written. */
  readonly check: boolean
  readonly env?: Readonly<Record<string, string | undefined>>
  /** The time schedules run by; the system's unless given (tests move their own). */
  readonly clock?: Clock
}

/** A germinated (and, unless checking, started) bot. */
export interface Running {
  readonly config: MyceloConfig
  readonly store: Store
  /** Install rows and settings; writing a secret through it updates the log redactor at once. */
  readonly plugins: PluginStore
  readonly germination: Germination
  /** The message path and everything it works over; absent for a check, which starts nothing. */
  readonly assembly: Assembly | undefined
  /** The admin page and API, listening; absent for a check or with `http.enabled: false`. */
  readonly http: HttpServer | undefined
  /**
   * Why germination was refused when the bot runs degraded: no spore started, the page and API
   * answer (the spores with their reasons, enable, disable, settings) so the operator can fix it.
   */
  readonly refused: string | undefined
  /** The report as it stands now: a spore whose start failed shows dormant. */
  report(): ReportLine[]
  /** Stops the spores in reverse, then closes the store. */
  stop(): Promise<void>
}

export type StartUp =
  | { readonly ok: true; readonly value: Running }
  | { readonly ok: false; readonly error: string; readonly config?: MyceloConfig }

/**
 * config → database (migrations) → owner bootstrap → germination → lifecycle. A fault an
 * operator can fix (a bad config file, a newer database, a cycle, a name clash) is a refusal
 * naming it; anything else is a bug and throws.
 */
export async function startUp(options: StartUpOptions): Promise<StartUp> {
  const { logging, check } = options
  const logger = logging.logger
  const opening = openBot({ env: options.env ?? process.env, write: !check, logging })
  if (!opening.ok) return opening
  const { config, store, plugins, close } = opening.value
  try {
    // The staging folders' own module: the install machinery is loaded when something is installed.
    if (!check) await cleanFolders(foldersOf(config), logger)
    let refused: string | undefined
    let germination: Germination
    try {
      germination = await germinateConfigured(config, plugins, logger)
    } catch (error) {
      // A spores folder that cannot be read: the page still answers (degraded), so the operator can fix it there.
      if (check || !config.http.enabled || !(error instanceof StartupRefusal)) throw error
      refused = error.message
      logger.error('germination refused; no spore starts and the admin page stays up', { reason: refused })
      const { spores, sporangia } = config
      germination = await degradedGermination({
        folders: spores,
        installs: sporangia.installs,
        plugins,
        logger,
        refusal: refused,
      })
    }
    let assembly: Assembly | undefined
    let http: HttpServer | undefined
    if (!check) {
      assembly = assembleRuntime({
        config,
        store,
        plugins,
        logger,
        germination,
        ...coreCatalogues(),
        ...(options.clock ? { clock: options.clock } : {}),
      })
      const metrics = new MetricsRegistry()
      assembly.bus.observe(metrics)
      assembly.runtime.supervisor.watchReturns((name) => metrics.reconnected(name))
      const { outbox } = assembly.runtime
      assembly.runtime.supervisor.watchReturns((name) => outbox.wake(name))
      const { bus } = assembly
      if (refused === undefined) {
        await startAll(germination, assembly.contexts, {
          deadlines: config.timeouts,
          onAdmissionReady: () => bus.openAdmission(),
          onConnecting: (spore) => assembly?.runtime.supervisor.connecting(spore.name),
        })
        assembly.runtime.lifecycle.activate()
        hostKeeper.activate()
        assembly.runtime.supervisor.begin()
        // What the last run accepted and did not send goes first, in its order.
        assembly.runtime.outbox.begin()
        // Runs that fell due while their spores were starting (missed ones among them) go now.
        assembly.runtime.holdings.scheduler.wake()
      }
      // Last, once every spore is up: the page shows the bot as it runs.
      if (config.http.enabled)
        http = listen(assembly, {
          metrics,
          ...(logging.tap ? { logs: logging.tap } : {}),
          ...(refused === undefined ? {} : { refused }),
        })
      // Degraded with no page to fix it from: the refusal is all there is to say.
      if (refused !== undefined && http === undefined) throw new StartupRefusal(refused)
    }
    return {
      ok: true,
      value: {
        config,
        store,
        plugins,
        germination,
        assembly,
        http,
        refused,
        // A channel that started but reaches nothing reads as it is, never live.
        report: () => report(germination, (name) => assembly?.runtime.supervisor.notLive(name)),
        async stop() {
          // First, and in the same turn as the bus stops taking messages: no request or message
          // starts while the rest shuts down; those in flight finish before anything they use stops.
          const requests = http?.stop()
          assembly?.runtime.supervisor.stop()
          const scheduler = assembly?.runtime.holdings.scheduler
          scheduler?.stop()
          const closing = assembly?.bus.close(config.timeouts.stop)
          // Runs still going were told to end; each is waited for no longer than a stop().
          const runs = scheduler?.idle()
          if (runs)
            await raceDeadline(runs, { step: 'schedule runs', ms: config.timeouts.stop }).catch(
              () => undefined,
            )
          await closing
          await requests
          // Sends under way may finish before their channels stop; the rest wait for the next start.
          await assembly?.runtime.outbox.close(config.timeouts.stop)
          await stopAll(germination, { timeoutMs: config.timeouts.stop, logger })
          // Hosts of spores that never started (dormant after create) go with the bot.
          hostKeeper.endAll()
          close()
        },
      },
    }
  } catch (error) {
    close()
    if (error instanceof StartupRefusal) return { ok: false, error: error.message, config }
    throw error
  }
}

/** The page is how an operator fixes things, never a reason to stop: a taken port is said, not fatal. */
function listen(
  assembly: Assembly,
  options: { readonly metrics: MetricsRegistry; readonly logs?: LogTap; readonly refused?: string },
): HttpServer | undefined {
  const { runtime } = assembly
  try {
    return startHttp(runtime, options)
  } catch (error) {
    const { bind, port } = runtime.config.http
    const taken = (error as { code?: unknown }).code === 'EADDRINUSE'
    const reason = error instanceof Error ? error.message : String(error)
    const message = runtime.translator.render(
      { domain: 'core', key: taken ? 'http.portTaken' : 'http.cannotListen', params: { bind, port, reason } },
      runtime.config.defaultLocale,
    )
    runtime.logger.error(message, { bind, port, error: reason })
    return undefined
  }
}
