import type { SporeOperation } from '@mycelo/septum'
import { z } from 'zod'
import type { GerminatedSpore } from '../germination/index.ts'
import { actingAs } from '../mycelium/actor.ts'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import { withinDeadline } from '../supervision/deadline.ts'
import type { AccessOptions } from './access.ts'
import { scopeVerbs, type Verb } from './bot-scopes.ts'
import type { CallWrapper } from './execution.ts'
import type { CapabilitySource } from './leases.ts'
import { type AgentModule, defineModule } from './namespace.ts'
import {
  type AgentRuntime,
  type AgentRuntimeOptions,
  type ExecutionOptions,
  makeAgentRuntime,
} from './runtime.ts'

export interface BotAgentOptions {
  /** The person the agent acts for: every rule bounds it as that person. */
  readonly principalId: string
  /** The credential or client it came through, for the log. */
  readonly agent: string
  readonly access?: AccessOptions
  readonly execution?: ExecutionOptions
  readonly onSandboxFailure?: AgentRuntimeOptions['onSandboxFailure']
}

/**
 * An agent runtime over this bot: its own operations, one module per mycelium scope
 * (`env.plugins.toggle.disable({ name })`), and each live spore's under `env.spores.<name>`.
 * Every call runs as the agent actor, so the role ceiling and lockouts see the person behind it.
 */
export function createBotAgent(runtime: CoreRuntime, options: BotAgentOptions): AgentRuntime {
  const actor = { kind: 'agent', principalId: options.principalId, agent: options.agent } as const
  // The person's language, read at each call: what the bot words (reasons, descriptions) reads in it.
  const around: CallWrapper = (work) =>
    actingAs({ ...actor, locale: localeOf(runtime, options.principalId) }, work)
  return makeAgentRuntime({
    modules: botModules(runtime, options.principalId),
    sources: [sporeOperationsSource(runtime)],
    around,
    logger: runtime.logger,
    access: {
      render: (ref) => runtime.translator.render(ref, localeOf(runtime, options.principalId)),
      ...options.access,
    },
    ...(options.execution ? { execution: options.execution } : {}),
    ...(options.onSandboxFailure ? { onSandboxFailure: options.onSandboxFailure } : {}),
    failureWords: (key, params) =>
      runtime.translator.render(
        { domain: 'core', key: `agent.failure.${key}`, params },
        localeOf(runtime, options.principalId),
      ),
  })
}

/** One module per scope, named for it: id `plugins.toggle` is what a grant names. */
export function botModules(runtime: CoreRuntime, principalId: string): AgentModule[] {
  const render = refusalRenderer(runtime, principalId)
  return Object.entries(scopeVerbs(runtime)).map(([scope, verbs]) => {
    const [namespace, name] = scope.split('.') as [string, string]
    const operations = Object.fromEntries(
      Object.entries(verbs).map(([method, verb]) => [method, operationOf(verb, render)]),
    )
    return defineModule({
      id: scope,
      name,
      namespace: [namespace],
      description: `The ${scope} scope`,
      operations,
    })
  })
}

type Render = (outcome: { ok: false; refusal: { key: string; params?: unknown } }) => string

function operationOf(verb: Verb, render: Render): SporeOperation {
  return {
    description: verb.description,
    access: verb.access,
    ...(verb.confirm ? { confirm: true } : {}),
    input: verb.input,
    output: z.json(),
    run: async (input) => resultOf(await verb.call(input as never), render),
  }
}

/**
 * A mycelium answer as JSON the model can read: an Outcome's refusal keeps its catalogue key and
 * params and gains its sentence; dates become ISO text.
 */
function resultOf(answer: unknown, render: Render): unknown {
  const json = answer === undefined ? null : JSON.parse(JSON.stringify(answer))
  if (!isOutcome(json)) return json
  if (json.ok) return 'value' in json ? { ok: true, value: json.value } : { ok: true }
  const { refusal } = json as unknown as { refusal: { key: string; params?: unknown } }
  return {
    ok: false,
    refusal: refusal.key,
    params: refusal.params ?? {},
    message: render({ ok: false, refusal }),
  }
}

function isOutcome(value: unknown): value is { ok: boolean; value?: unknown } {
  return typeof value === 'object' && value !== null && typeof (value as { ok?: unknown }).ok === 'boolean'
}

/** Refusals are worded in the locale of the person the agent acts for. */
function refusalRenderer(runtime: CoreRuntime, principalId: string): Render {
  return ({ refusal }) =>
    runtime.translator.render({ domain: 'common', ...refusal } as never, localeOf(runtime, principalId))
}

function localeOf(runtime: CoreRuntime, principalId: string): string {
  return runtime.directory.load(principalId)?.locale ?? runtime.config.defaultLocale
}

/**
 * The live spores' own operations. Each call checks the spore is still live and runs under the
 * handler deadline; a spore found gone marks the snapshot stale, so the next lease drops it.
 */
export function sporeOperationsSource(runtime: CoreRuntime): CapabilitySource {
  return {
    id: 'spores',
    async acquire(invalidate) {
      const germination = runtime.germination
      const modules = germination.spores
        .filter((spore) => spore.state === 'live' && spore.operations !== undefined)
        .flatMap((spore) => sporeModule(runtime, spore, invalidate))
      return { modules, release: async () => undefined }
    },
  }
}

function sporeModule(runtime: CoreRuntime, spore: GerminatedSpore, invalidate: () => void): AgentModule[] {
  const germination = runtime.germination
  try {
    const declared = spore.operations as Readonly<Record<string, SporeOperation>>
    const operations = Object.fromEntries(
      Object.entries(declared).map(([key, op]) => {
        const run = op.run
        const guarded: SporeOperation = {
          description: op.description,
          input: op.input,
          output: op.output,
          access: op.access,
          confirm: op.confirm,
          run: (input, context) => {
            if (runtime.germination !== germination || spore.state !== 'live') {
              invalidate()
              throw new Error(`${spore.name} is not live`)
            }
            const ms = runtime.config.timeouts.handler
            return withinDeadline(() => run.call(op, input, context), { step: `operation ${key}`, ms })
          },
        }
        return [key, guarded]
      }),
    )
    return [defineModule({ id: spore.name, namespace: ['spores'], operations })]
  } catch (error) {
    // A spore's bad definition costs it its operations, and nothing else.
    runtime.logger.warn('spore operations refused', { spore: spore.name, error: String(error) })
    return []
  }
}
