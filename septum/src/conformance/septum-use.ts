import type { Manifest } from '../contract/index.ts'
import { lowestAdmittedBelow } from '../range/index.ts'
import { type Failures, isRecord } from './failures.ts'

/** The first septum with storage, schedules, migrations and routes. */
const SEPTUM_1_1 = '1.1.0'
/** The context members septum 1.1 added; a call through one of them counts as using it. */
const CONTEXT_MEMBERS_1_1 = ['storage', 'schedule'] as const

/**
 * What of septum 1.1 a spore uses, noted while the kit runs it: a call through `ctx.storage` or
 * `ctx.schedule`, `migrations` on the default export, `routes:` in the manifest. A range that still
 * admits a 1.0 septum is then refused, naming what needs 1.1: a 1.0 core would start the spore and
 * fail at its first call instead of refusing it.
 */
export class SeptumUse {
  readonly #members = new Set<string>()
  manifest: Manifest | undefined

  constructor(readonly module: unknown) {}

  /** Wraps a context factory so the spore's calls through a 1.1 member are noted. */
  watch<T>(make: () => T): () => T
  watch<T>(make: (() => T) | undefined): (() => T) | undefined
  watch<T>(make: (() => T) | undefined): (() => T) | undefined {
    if (make === undefined) return undefined
    return () => {
      const context = make()
      if (!isRecord(context)) return context
      return new Proxy(context, {
        get: (target, key, receiver) => {
          const value = Reflect.get(target, key, receiver)
          const member = CONTEXT_MEMBERS_1_1.find((name) => name === key)
          return member === undefined || !isRecord(value) ? value : this.#noting(`ctx.${member}`, value)
        },
      }) as T
    }
  }

  /** The member itself may be copied around freely (the kit narrows contexts); only a call counts. */
  #noting(member: string, value: Record<string, unknown>): Record<string, unknown> {
    return new Proxy(value, {
      get: (target, key, receiver) => {
        const property = Reflect.get(target, key, receiver)
        if (typeof property !== 'function') return property
        return (...args: unknown[]) => {
          this.#members.add(member)
          return (property as (...args: unknown[]) => unknown).apply(target, args)
        }
      },
    })
  }

  report(failures: Failures): void {
    const manifest = this.manifest
    if (manifest === undefined) return
    const members = [...this.#members]
    if (isRecord(this.module) && this.module.migrations !== undefined)
      members.push('migrations on the default export')
    if ((manifest.routes?.length ?? 0) > 0) members.push('routes in the manifest')
    if (members.length === 0) return
    const admitted = lowestAdmittedBelow(manifest.septum, SEPTUM_1_1)
    if (admitted === undefined) return
    failures.add(
      `manifest: septum range "${manifest.septum}" admits septum ${admitted}, which has no ` +
        `${members.join(', ')}: the spore uses septum 1.1, so declare "^1.1" (or narrower) and a 1.0 core ` +
        'refuses it instead of failing at its first call',
    )
  }
}
