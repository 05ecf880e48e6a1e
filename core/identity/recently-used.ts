/**
 * A map that holds at most `capacity` entries and forgets the least recently used one past it, so
 * memory follows how many people are active, not how many were ever seen. A capacity of 0 holds
 * nothing (every read misses), which is how the cold path is measured.
 */
export class RecentlyUsed<K, V> {
  readonly capacity: number
  // A Map iterates in insertion order: re-inserting on a hit keeps the oldest entry first.
  readonly #entries = new Map<K, V>()

  constructor(capacity: number) {
    this.capacity = capacity
  }

  get size(): number {
    return this.#entries.size
  }

  get(key: K): V | undefined {
    const value = this.#entries.get(key)
    if (value === undefined) return undefined
    this.#entries.delete(key)
    this.#entries.set(key, value)
    return value
  }

  set(key: K, value: V): void {
    if (this.capacity === 0) return
    this.#entries.delete(key)
    this.#entries.set(key, value)
    if (this.#entries.size > this.capacity) {
      this.#entries.delete(this.#entries.keys().next().value as K)
    }
  }

  delete(key: K): void {
    this.#entries.delete(key)
  }

  clear(): void {
    this.#entries.clear()
  }
}
