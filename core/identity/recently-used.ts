/**
 * A map that holds at most `capacity` entries, so memory follows how many people are active, not
 * how many were ever seen. Entries live in two generations: a read hits the young one at the cost
 * of one lookup; once it is full, the old generation is dropped whole and the young one takes its
 * place, so what was not used during a whole generation is forgotten. A capacity of 0 holds
 * nothing (every read misses), which is how the cold path is measured.
 */
export class RecentlyUsed<K, V> {
  readonly capacity: number
  readonly #generation: number
  #young = new Map<K, V>()
  #old = new Map<K, V>()

  constructor(capacity: number) {
    this.capacity = capacity
    this.#generation = Math.max(1, Math.floor(capacity / 2))
  }

  get size(): number {
    return this.#young.size + this.#old.size
  }

  get(key: K): V | undefined {
    const young = this.#young.get(key)
    if (young !== undefined) return young
    const old = this.#old.get(key)
    if (old === undefined) return undefined
    // Used again: it moves to the young generation and survives the next turnover.
    this.#old.delete(key)
    this.#remember(key, old)
    return old
  }

  set(key: K, value: V): void {
    if (this.capacity === 0) return
    this.#old.delete(key)
    if (this.#young.has(key)) this.#young.set(key, value)
    else this.#remember(key, value)
  }

  delete(key: K): void {
    this.#young.delete(key)
    this.#old.delete(key)
  }

  clear(): void {
    this.#young.clear()
    this.#old.clear()
  }

  #remember(key: K, value: V): void {
    if (this.#young.size >= this.#generation) {
      // With room for one entry only, there is no old generation to keep.
      this.#old = this.capacity > 1 ? this.#young : new Map()
      this.#young = new Map()
    }
    this.#young.set(key, value)
  }
}
