import {
  type CodeCommand,
  type EnzymeContext,
  type EnzymeManifest,
  type EnzymeStartContext,
  type Invocation,
  isCodeCommand,
  type Translate,
} from '../contract/index.ts'
import { type Catalogues, checkDescriptions, checkRespond, compileCatalogues } from './catalogues.ts'
import { checkConfigSchema } from './config-schema.ts'
import { type Failures, isRecord } from './failures.ts'
import { checkMigrations } from './migrations.ts'
import type { EnzymeCheckOptions } from './options.ts'
import { checkRoutes } from './routes.ts'
import { SeptumUse } from './septum-use.ts'
import {
  callMember,
  checkManifest,
  createInstance,
  optionalFunction,
  runChecks,
  syntheticMessage,
} from './spore.ts'
import { catalogueTranslator, UndeclaredDomainError } from './translator.ts'

/** Exactly what start() may reach: no reply, principal, capabilities or locale exist before a message. */
const START_MEMBERS = [
  'config',
  'logger',
  'rhiza',
  'has',
  'storage',
  'schedule',
  'push',
  'capabilitiesOf',
  'on',
  't',
  'localeFor',
] as const satisfies readonly (keyof EnzymeStartContext)[]

/**
 * Checks an enzyme: manifest, config schema, catalogues when given, every handler present, then
 * start(), every command invoked with an empty args bag, and stop().
 */
export function enzymeChecks<C = Record<string, unknown>>(given: EnzymeCheckOptions<C>): Promise<string[]> {
  const use = new SeptumUse(given.module)
  const options = { ...given, context: use.watch(given.context), startContext: use.watch(given.startContext) }
  return runChecks(async (failures) => {
    const manifest = checkManifest('enzyme', options, failures, use)
    if (manifest === undefined) return
    checkConfigSchema(options.module, options, failures)
    await checkMigrations(options.module, failures)
    const catalogues =
      options.catalogs === undefined ? undefined : compileCatalogues(options.catalogs, failures)
    if (catalogues !== undefined) {
      checkDescriptions(manifest, catalogues, failures)
      for (const command of manifest.commands) {
        if (!isCodeCommand(command)) checkRespond(command, catalogues, failures)
      }
    }
    const codeCommands = manifest.commands.filter(isCodeCommand)
    // A manifest of respond: commands alone is the whole plugin; it needs no module.
    if (options.module === undefined) {
      for (const command of codeCommands) {
        failures.add(`command "${command.name}": code "${command.code}" needs a module, and none was given`)
      }
      return
    }
    await runLifecycle({ options, manifest, catalogues, codeCommands }, failures)
  }, use)
}

interface Lifecycle<C> {
  readonly options: EnzymeCheckOptions<C>
  readonly manifest: EnzymeManifest
  readonly catalogues: Catalogues | undefined
  readonly codeCommands: readonly CodeCommand[]
}

async function runLifecycle<C>(lifecycle: Lifecycle<C>, failures: Failures): Promise<void> {
  const { options, codeCommands } = lifecycle
  const instance = await createInstance(options.module, failures)
  if (instance === undefined) return
  checkRoutes(lifecycle.manifest, instance, failures)
  const handlers = instance.handlers
  if (!isRecord(handlers)) {
    failures.add('module: create() returned no handlers object')
    return
  }
  const missing = codeCommands.filter((command) => typeof handlers[command.code] !== 'function')
  for (const command of missing) {
    failures.add(`command "${command.name}": the module's handlers have no "${command.code}" function`)
  }
  const hasStop = optionalFunction(instance, 'stop', failures)
  if (optionalFunction(instance, 'start', failures)) {
    const context = await failures.attempt(
      () => startContext(lifecycle, failures),
      (error) =>
        `start(): ${options.startContext === undefined ? 'context()' : 'startContext()'} threw: ${error}`,
    )
    if (!context.ok) return
    const started = await failures.attempt(
      async () => callMember(instance, 'start', context.value),
      (error, cause) => startFailure(error, cause, options.startContext === undefined),
    )
    // The bot dispatches nothing to an enzyme whose start() failed.
    if (!started.ok) return
  }
  for (const command of codeCommands) {
    if (!missing.includes(command)) await invoke(lifecycle, command, handlers, failures)
  }
  if (hasStop) {
    await failures.attempt(
      async () => callMember(instance, 'stop'),
      (error) => `stop(): threw: ${error}`,
    )
  }
}

function startFailure(error: string, cause: unknown, narrowed: boolean): string {
  if (cause instanceof UndeclaredDomainError) return `start(): ${undeclaredDomain(cause)}`
  const hint =
    narrowed && cause instanceof TypeError ? '; start() gets no reply, principal, capabilities or locale' : ''
  return `start(): threw with the start context: ${error}${hint}`
}

function undeclaredDomain(error: UndeclaredDomainError): string {
  return `called ctx.t() for domain "${error.domain}", which is neither its own, common, nor a rhiza its manifest requires`
}

/** The start context: the author's own, or context() narrowed to the start members. */
function startContext<C>(lifecycle: Lifecycle<C>, failures: Failures): EnzymeStartContext<C> {
  const { options } = lifecycle
  const given = options.startContext?.() ?? narrow(options.context())
  return translating(given, lifecycle, failures, 'start()', undefined)
}

function narrow<C>(context: EnzymeContext<C>): EnzymeStartContext<C> {
  const narrowed: Record<string, unknown> = {}
  for (const member of START_MEMBERS) {
    const value: unknown = context[member]
    // Bound, so a context built as a class keeps its `this`.
    narrowed[member] = typeof value === 'function' ? value.bind(context) : value
  }
  return narrowed as unknown as EnzymeStartContext<C>
}

/** With catalogues, t() renders from them and refuses a domain the manifest does not declare. */
function translating<X extends EnzymeStartContext<C>, C>(
  context: X,
  lifecycle: Lifecycle<C>,
  failures: Failures,
  where: string,
  readerLocale: string | undefined,
): X {
  const { catalogues, manifest } = lifecycle
  if (catalogues === undefined) return context
  const fallback: Translate = (key, params, locale) => context.t(key, params, locale)
  const t = catalogueTranslator({
    manifest,
    catalogues,
    fallback,
    readerLocale,
    onFormatError: (key, locale, error) =>
      failures.add(
        `${where}: t("${key}") cannot render in "${locale}": ${error}; the bot would answer with the key`,
      ),
  })
  return replacingT(context, t)
}

/**
 * The context seen through a view whose t() is replaced. The view's own target is empty, so a
 * frozen context, whose t could not be answered differently through a plain proxy, works too.
 */
function replacingT<X extends object>(context: X, t: Translate): X {
  return new Proxy(Object.create(null) as X, {
    get(_target, property) {
      if (property === 't') return t
      const value: unknown = Reflect.get(context, property, context)
      // Bound, so a context built as a class keeps its `this`.
      return typeof value === 'function' ? value.bind(context) : value
    },
    has: (_target, property) => property in context,
    ownKeys: () => Reflect.ownKeys(context),
    getOwnPropertyDescriptor(_target, property) {
      if (property === 't') return { value: t, writable: false, enumerable: true, configurable: true }
      const descriptor = Reflect.getOwnPropertyDescriptor(context, property)
      return descriptor === undefined ? undefined : { ...descriptor, configurable: true }
    },
  })
}

async function invoke<C>(
  lifecycle: Lifecycle<C>,
  command: CodeCommand,
  handlers: Record<string, unknown>,
  failures: Failures,
): Promise<void> {
  const where = `command "${command.name}"`
  const handler = handlers[command.code] as (invocation: Invocation, ctx: EnzymeContext<C>) => unknown
  const invocation: Invocation = {
    command: command.name,
    args: {},
    rest: '',
    message: syntheticMessage({ text: `/${command.name}` }),
  }
  const context = await failures.attempt(
    () => lifecycle.options.context(),
    (error) => `${where}: context() threw: ${error}`,
  )
  if (!context.ok) return
  const handlerContext = translating(context.value, lifecycle, failures, where, context.value.locale)
  await failures.attempt(
    async () => handler.call(handlers, invocation, handlerContext),
    (error, cause) =>
      cause instanceof UndeclaredDomainError
        ? `${where}: handler "${command.code}" ${undeclaredDomain(cause)}`
        : `${where}: handler "${command.code}" threw on an empty args bag: ${error}; ` +
          'answer with a usage sentence instead',
  )
}
