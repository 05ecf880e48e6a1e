import type { ShareTable } from './marshal.ts'

/**
 * One side's record of shared values (see markShared): the ids of those it sent, while they live,
 * and its copies of those the other side sent. A value given an id is known to the other side
 * only once the message carrying its copy is posted: `posted` keeps it, `failed` forgets it.
 */
export class Shares implements ShareTable {
  readonly #ids = new WeakMap<object, number>()
  /** Values given an id by the marshalling under way. */
  readonly #fresh: object[] = []
  readonly #gone: FinalizationRegistry<number>
  #next = 1
  /** This side's copies of the other side's shared values, by id. */
  readonly copies = new Map<number, unknown>()

  /** `forget` tells the other side a value it keeps a copy of is gone here. */
  constructor(forget: (id: number) => void) {
    this.#gone = new FinalizationRegistry(forget)
  }

  idOf(value: object): { readonly id: number; readonly known: boolean } {
    const known = this.#ids.get(value)
    if (known !== undefined) return { id: known, known: true }
    const id = this.#next++
    this.#ids.set(value, id)
    this.#fresh.push(value)
    return { id, known: false }
  }

  /** The message carrying the fresh copies was posted: the other side keeps them from now on. */
  posted(): void {
    for (const value of this.#fresh) this.#gone.register(value, this.#ids.get(value)!)
    this.#fresh.length = 0
  }

  /** The message was never posted: the fresh copies will cross again next time. */
  failed(): void {
    for (const value of this.#fresh) this.#ids.delete(value)
    this.#fresh.length = 0
  }
}
