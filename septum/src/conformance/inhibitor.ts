import type { InhibitorContext } from '../contract/index.ts'
import { checkConfigSchema } from './config-schema.ts'
import { type Failures, isRecord } from './failures.ts'
import { checkMigrations } from './migrations.ts'
import type { InhibitorCheckOptions, InhibitorExpectation } from './options.ts'
import { checkRoutes } from './routes.ts'
import { SeptumUse } from './septum-use.ts'
import {
  callMember,
  checkManifest,
  createInstance,
  optionalFunction,
  requireFunctions,
  runChecks,
  syntheticMessage,
} from './spore.ts'

/** Checks an inhibitor: manifest, config schema, start(), one verdict per expectation, and stop(). */
export function inhibitorChecks<C = Record<string, unknown>>(
  given: InhibitorCheckOptions<C>,
): Promise<string[]> {
  const use = new SeptumUse(given.module)
  const options = { ...given, context: use.watch(given.context) }
  return runChecks(async (failures) => {
    const manifest = checkManifest('inhibitor', options, failures, use)
    if (manifest === undefined) return
    checkConfigSchema(options.module, options, failures)
    await checkMigrations(options.module, failures)
    const instance = await createInstance(options.module, failures)
    if (instance === undefined) return
    checkRoutes(manifest, instance, failures)
    const inspects = requireFunctions(instance, ['inspect'], failures)
    const hasStart = optionalFunction(instance, 'start', failures)
    const hasStop = optionalFunction(instance, 'stop', failures)
    if (!inspects) return

    if (hasStart) {
      const context = await failures.attempt(
        () => options.context(),
        (error) => `start(): context() threw: ${error}`,
      )
      if (!context.ok) return
      const started = await failures.attempt(
        async () => callMember(instance, 'start', context.value),
        (error) => `start(): threw: ${error}; the inhibitor would never become usable`,
      )
      // A dormant inhibitor inspects nothing in the bot.
      if (!started.ok) return
    }
    for (const [index, expectation] of options.expectations.entries()) {
      await checkVerdict({ instance, expectation, index, context: options.context }, failures)
    }
    if (hasStop) {
      await failures.attempt(
        async () => callMember(instance, 'stop'),
        (error) => `stop(): threw: ${error}`,
      )
    }
  }, use)
}

interface VerdictCheck<C> {
  readonly instance: Record<string, unknown>
  readonly expectation: InhibitorExpectation
  readonly index: number
  readonly context: () => InhibitorContext<C>
}

async function checkVerdict<C>(check: VerdictCheck<C>, failures: Failures): Promise<void> {
  const { expectation } = check
  const message = syntheticMessage(expectation.message)
  const where =
    expectation.label === undefined ? `expectation #${check.index + 1}` : `expectation "${expectation.label}"`
  const context = await failures.attempt(
    () => check.context(),
    (error) => `${where}: context() threw: ${error}`,
  )
  if (!context.ok) return
  const verdict = await failures.attempt(
    async () => callMember(check.instance, 'inspect', message, context.value),
    (error) => `${where}: inspect() threw: ${error}`,
  )
  if (!verdict.ok) return
  const answer = verdict.value
  if (!isRecord(answer) || typeof answer.allow !== 'boolean') {
    failures.add(
      `${where}: inspect() returned no verdict; answer { allow: true } or { allow: false, reason }`,
    )
    return
  }
  const reason = answer.allow ? undefined : answer.reason
  if (answer.allow !== expectation.allow) {
    failures.add(
      expectation.allow
        ? `${where}: expected the message allowed, but inspect() refused it: ${String(reason)}`
        : `${where}: expected the message refused, but inspect() allowed it`,
    )
  }
  if (!answer.allow && (typeof reason !== 'string' || reason.trim() === '')) {
    failures.add(`${where}: inspect() refused without a reason; a refusal must say why, for the operator`)
  }
}
