import type { ConfigSchema, JsonSchema, Manifest, StorageMigration } from '@mycelo/septum'
import { faultText } from '../germination/fault.ts'
import {
  findEntry,
  type ImportRefusal,
  type SporeExport,
  withoutEntry,
} from '../germination/module-import.ts'
import { type ModuleLoad, refusalText } from '../germination/module-loading.ts'
import { coreReason } from '../i18n/reason-words.ts'
import type { Host } from './host.ts'
import { hostKeeper } from './keeper.ts'
import { realDir } from './policy.ts'
import { refreshLate } from './unmarshal.ts'

interface LoadAnswer {
  readonly refused?: ImportRefusal
  readonly module?: boolean
  readonly entry?: string
  readonly schema?: {
    readonly safeParse: ConfigSchema['safeParse']
    readonly toJsonSchema?: () => JsonSchema
    readonly secrets?: readonly string[]
  }
  readonly migrations?: readonly StorageMigration[]
  readonly operations?: unknown
}

export interface IsolatedLoadOptions {
  readonly spore: string
  readonly deadlineMs: number
  readonly fresh?: number
  /** Read, never run: its host is not supervised (see LoadOptions.transient). */
  readonly transient?: boolean
}

/**
 * Loads a spore in a host of its own: the worker imports the module and reads its default export;
 * the core receives proxies with the same shape (create, configSchema, migrations, operations). The
 * host is ended here when the spore will not run; otherwise by whoever ends the spore.
 */
export async function loadIsolated(
  dir: string,
  manifest: Manifest,
  options: IsolatedLoadOptions,
): Promise<ModuleLoad & { readonly host?: Host }> {
  // Found here, where a file's status is a system call away: a host would look for it through
  // asynchronous reads, a millisecond of its start. A spore with no module needs no host at all.
  const found = findEntry(dir)
  if (found === undefined) {
    const none = withoutEntry(manifest)
    return none.ok ? { ok: true, module: undefined } : { ok: false, reason: refusalText(none.refusal) }
  }
  const host = await hostKeeper.open(options.spore, { transient: options.transient === true })
  let answer: LoadAnswer
  try {
    answer = (await host.root('load', {
      dir,
      found,
      realDir: realDir(dir),
      deadlineMs: options.deadlineMs,
      allow: hostKeeper.policy.allow[options.spore] ?? [],
      ...(options.fresh === undefined ? {} : { fresh: options.fresh }),
    })) as LoadAnswer
  } catch (error) {
    // A host opened only to read a schema is never restarted: it ends now, not after a ping.
    if (options.transient === true) hostKeeper.end(host)
    else hostKeeper.discard(host, error)
    // A top level that never yields cannot answer: its host is ended, and this spore alone is dormant.
    return {
      ok: false,
      reason: coreReason('moduleFailed', { entry: 'in its host', fault: faultText(error) }),
    }
  }
  if (answer.refused !== undefined || !answer.module) {
    hostKeeper.end(host)
    if (answer.refused !== undefined) return { ok: false, reason: refusalText(answer.refused) }
    return { ok: true, module: undefined }
  }
  const exported: SporeExport = {
    create: async () => {
      const instance = await host.root('create')
      if (typeof instance === 'object' && instance !== null) {
        hostKeeper.adopt(host, instance)
        refreshedAfterStarting(instance as Record<string, unknown>)
      }
      return instance
    },
    ...(answer.schema ? { configSchema: answer.schema } : {}),
    ...(answer.migrations ? { migrations: answer.migrations } : {}),
    ...(answer.operations === undefined ? {} : { operations: answer.operations }),
  }
  return { ok: true, module: { entry: answer.entry ?? 'index', exported, host } }
}

/** The steps after which a spore's getters (a rhiza's `get api()`) answer what they could not before. */
const STARTING = ['start', 'connect', 'listen'] as const

function refreshedAfterStarting(instance: Record<string, unknown>): void {
  for (const step of STARTING) {
    const call = instance[step]
    if (typeof call !== 'function') continue
    instance[step] = async (...args: unknown[]) => {
      const result = await call(...args)
      await refreshLate(instance)
      return result
    }
  }
}
