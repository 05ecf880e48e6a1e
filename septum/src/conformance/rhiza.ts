import { checkConfigSchema } from './config-schema.ts'
import { type Failures, isRecord } from './failures.ts'
import { checkMigrations } from './migrations.ts'
import type { RhizaCheckOptions } from './options.ts'
import { checkRoutes } from './routes.ts'
import { SeptumUse } from './septum-use.ts'
import { callMember, checkManifest, createInstance, requireFunctions, runChecks } from './spore.ts'

const HEALTH_STATES: readonly unknown[] = ['healthy', 'degraded', 'unreachable']

/** Checks a rhiza: manifest, config schema, start(), its api, a health() that reports, and stop(). */
export function rhizaChecks<Api = unknown, C = Record<string, unknown>>(
  given: RhizaCheckOptions<Api, C>,
): Promise<string[]> {
  const use = new SeptumUse(given.module)
  const options = { ...given, context: use.watch(given.context) }
  return runChecks(async (failures) => {
    const manifest = checkManifest('rhiza', options, failures, use)
    if (manifest === undefined) return
    checkConfigSchema(options.module, options, failures)
    await checkMigrations(options.module, failures)
    const instance = await createInstance(options.module, failures)
    if (instance === undefined) return
    checkRoutes(manifest, instance, failures)
    if (!requireFunctions(instance, ['start', 'stop', 'health'], failures)) return

    const context = await failures.attempt(
      () => options.context(),
      (error) => `start(): context() threw: ${error}`,
    )
    if (!context.ok) return
    const started = await failures.attempt(
      async () => callMember(instance, 'start', context.value),
      (error) => `start(): threw: ${error}`,
    )
    if (!started.ok) return
    // Read once started: it is what other spores receive from ctx.rhiza(name).
    if (instance.api === undefined) failures.add('api: the rhiza has no api for other spores to receive')
    await checkHealth(instance, failures)
    await failures.attempt(
      async () => callMember(instance, 'stop'),
      (error) => `stop(): threw: ${error}`,
    )
  }, use)
}

async function checkHealth(instance: Record<string, unknown>, failures: Failures): Promise<void> {
  const health = await failures.attempt(
    async () => callMember(instance, 'health'),
    (error) => `health(): threw: ${error}; report { state: 'unreachable', detail, checkedAt } instead`,
  )
  if (!health.ok) return
  const report = health.value
  if (!isRecord(report)) {
    failures.add(`health(): resolved ${report === null ? 'null' : typeof report}, not a health report`)
    return
  }
  if (!HEALTH_STATES.includes(report.state)) {
    failures.add(`health(): state is ${JSON.stringify(report.state)}, not healthy, degraded or unreachable`)
  }
  const checkedAt = report.checkedAt
  if (!(checkedAt instanceof Date) || Number.isNaN(checkedAt.getTime())) {
    failures.add('health(): checkedAt is not a valid Date')
  }
}
