import { AsyncLocalStorage } from 'node:async_hooks'
import { isRefusalError, type MyceliumScope, SECRET_MASK } from '@mycelo/septum'
import { type Actor, currentActor } from '../mycelium/actor.ts'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import { auditLog, type NewAuditEntry } from './log.ts'
import { WRITE_METHODS } from './writes.ts'

/** Argument keys whose values never reach the log, at any depth (a source's token, …). */
const SECRET_KEYS = /token|secret|password|passphrase/i

/** The spore whose own call (outside any command) is in progress; set by the mycelium's surface. */
const sporeCalling = new AsyncLocalStorage<string>()

/** Runs `work` as the spore `spore` acting on its own, so the audit can name it. */
export function asSpore<T>(spore: string, work: () => T): T {
  return sporeCalling.run(spore, work)
}

/**
 * Wraps the write methods of one scope group so each call lands in the audit log with the actor,
 * the method, its arguments (secrets masked) and how it ended. Reads pass through untouched. Every
 * surface (chat, CLI, API, agent) calls these factories, so this is the one place writes are seen.
 */
export function audited<G extends object>(runtime: CoreRuntime, scope: MyceliumScope, group: G): G {
  const writes = WRITE_METHODS[scope]
  if (writes === undefined) return group
  const wrapped: Record<string, unknown> = { ...(group as Record<string, unknown>) }
  for (const method of writes) {
    const original = (group as Record<string, unknown>)[method]
    if (typeof original !== 'function') continue
    wrapped[method] = async (...args: unknown[]) => {
      const who = describeActor(currentActor())
      const entry = { ...who, method: `${scope}.${method}` }
      try {
        const result: unknown = await original.apply(group, args)
        const refusal = refusalOf(result)
        record(runtime, {
          ...entry,
          args: masked(runtime, { method, args, ok: refusal === undefined }),
          outcome: refusal === undefined ? 'ok' : 'refused',
          detail: refusal ?? null,
        })
        return result
      } catch (error) {
        const refusal = isRefusalError(error) ? error.refusal.key : undefined
        record(runtime, {
          ...entry,
          args: masked(runtime, { method, args, ok: false }),
          outcome: refusal === undefined ? 'failed' : 'refused',
          detail: refusal ?? (error instanceof Error ? error.message : String(error)),
        })
        throw error
      }
    }
  }
  return wrapped as G
}

/** Who, as the log names them: the person and the surface they came through. */
function describeActor(actor: Actor | undefined): Pick<NewAuditEntry, 'actorKind' | 'actor' | 'via'> {
  if (actor === undefined) {
    const spore = sporeCalling.getStore() ?? 'unknown'
    return { actorKind: 'spore', actor: spore, via: spore }
  }
  switch (actor.kind) {
    case 'principal':
      return { actorKind: 'principal', actor: actor.principalId, via: actor.channel }
    case 'agent':
      return { actorKind: 'agent', actor: actor.principalId, via: `agent:${actor.agent}` }
    case 'operator':
      return { actorKind: 'operator', actor: actor.surface, via: actor.surface }
  }
}

function refusalOf(result: unknown): string | undefined {
  if (typeof result !== 'object' || result === null || !('ok' in result) || result.ok !== false)
    return undefined
  const refusal = (result as { refusal?: { key?: unknown } }).refusal
  return typeof refusal?.key === 'string' ? refusal.key : 'refused'
}

/**
 * The arguments as the log keeps them. A setting's value is kept only once it was stored and is
 * not a secret: a refused value may have been meant as one, and the store alone knows the flag.
 */
function masked(runtime: CoreRuntime, call: { method: string; args: unknown[]; ok: boolean }): unknown[] {
  const { method, args, ok } = call
  if (method === 'setSetting') {
    const [plugin, key, value] = args
    const stored = ok ? runtime.plugins.settingsWithFlags(String(plugin))[String(key)] : undefined
    const keep = stored !== undefined && !stored.secret
    return [plugin, key, keep ? maskDeep(value) : SECRET_MASK]
  }
  return args.map(maskDeep)
}

function maskDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskDeep)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, SECRET_KEYS.test(key) ? SECRET_MASK : maskDeep(inner)]),
  )
}

/** A write that happened is never undone for its record; a log that cannot be written is logged. */
function record(runtime: CoreRuntime, entry: NewAuditEntry): void {
  try {
    auditLog(runtime.store).record(entry)
  } catch (error) {
    runtime.logger.error('an audit record could not be written', {
      method: entry.method,
      error: error instanceof Error ? error.message : String(error),
    })
  }
}
