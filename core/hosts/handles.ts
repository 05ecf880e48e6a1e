import type { CallKind, HandleMark } from './call-kinds.ts'
import { HANDLE } from './marks.ts'

type AnyFn = (...args: unknown[]) => unknown

interface Exported {
  readonly fn: AnyFn
  readonly owner: unknown
  sent: number
}

/**
 * The functions one side has handed the other, by handle: each kept while the other side may call
 * it. A function is counted each time it crosses, so a release for the copies the other side has
 * dropped keeps a handle sent again meanwhile.
 */
export class Exports {
  readonly #exports = new Map<number, Exported>()
  readonly #ids = new WeakMap<AnyFn, Map<unknown, number>>()
  #next = 1

  /** `owner` is what the function is called on: a spore's methods keep their `this`. */
  export(fn: AnyFn, owner: unknown): number {
    let byOwner = this.#ids.get(fn)
    if (byOwner === undefined) {
      byOwner = new Map()
      this.#ids.set(fn, byOwner)
    }
    let id = byOwner.get(owner)
    const known = id === undefined ? undefined : this.#exports.get(id)
    if (id === undefined || known === undefined) {
      id = this.#next++
      byOwner.set(owner, id)
      this.#exports.set(id, { fn, owner, sent: 1 })
    } else known.sent += 1
    return id
  }

  /** Calls handle `id` with `args` (already unmarshalled). */
  invoke(id: number, args: unknown[]): unknown {
    const exported = this.#exports.get(id)
    if (exported === undefined) throw new Error('this function is no longer available across the host')
    return exported.fn.apply(exported.owner, args)
  }

  /** The other side dropped `count` copies of handle `id`: forgotten once none is left. */
  release(id: number, count: number): void {
    const exported = this.#exports.get(id)
    if (exported === undefined) return
    exported.sent -= count
    if (exported.sent <= 0) {
      this.#exports.delete(id)
      this.#ids.get(exported.fn)?.delete(exported.owner)
    }
  }

  get size(): number {
    return this.#exports.size
  }
}

/**
 * The proxies one side made for the other's handles: one per handle while this side holds it, and
 * once it is collected, a release (with how many times it was received) told to the other side.
 */
export class Imports {
  readonly #imports = new Map<number, { ref: WeakRef<AnyFn>; received: number }>()
  readonly #registry: FinalizationRegistry<number>
  readonly #release: (id: number, count: number) => void

  constructor(release: (id: number, count: number) => void) {
    this.#release = release
    this.#registry = new FinalizationRegistry((id) => this.#collected(id))
  }

  /** The proxy for a handle: the one this side holds, else one `make` makes. */
  proxy(mark: HandleMark, make: (id: number, kind: CallKind) => AnyFn): AnyFn {
    const id = mark[HANDLE]
    const known = this.#imports.get(id)
    const alive = known?.ref.deref()
    if (known && alive) {
      known.received += 1
      return alive
    }
    const fn = make(id, mark.kind)
    if (known) {
      known.ref = new WeakRef(fn)
      known.received += 1
    } else this.#imports.set(id, { ref: new WeakRef(fn), received: 1 })
    this.#registry.register(fn, id)
    return fn
  }

  #collected(id: number): void {
    const known = this.#imports.get(id)
    if (known === undefined || known.ref.deref() !== undefined) return
    this.#imports.delete(id)
    this.#release(id, known.received)
  }
}
