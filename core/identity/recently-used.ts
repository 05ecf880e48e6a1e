/**
 * A map that holds at most `capacity` entries, so memory follows how many people are active, not
 * how many were ever seen. Entries live in two generations: a read hits the young one at the cost
 * of one lookup; once it is full, the old generation is dropped whole and the young one takes its
 * place, so what was not used during a whole generation is forgotten. A capacity of 0 holds
 * nothing (every read misses), which is how the cold path is measured.
 *
 * An entry is found by a scope and a key (a channel, and an id on it), each looked up as it is:
 * every message reads it, and a key joined from the two would be a new string to build and hash
 * each time.
 */
export class RecentlyUsed<S, K, V> {
  readonly capacity: number
  readonly #generation: number
  #young = new Generation<S, K, V>()
  #old = new Generation<S, K, V>()

  constructor(capacity: number) {
    this.capacity = capacity
    this.#generation = Math.max(1, Math.floor(capacity / 2))
  }

  get size(): number {
    return this.#young.size + this.#old.size
  }

  get(scope: S, key: K): V | undefined {
    const young = this.#young.get(scope, key)
    if (young !== undefined) return young
    const old = this.#old.get(scope, key)
    if (old === undefined) return undefined
    // Used again: it moves to the young generation and survives the next turnover.
    this.#old.delete(scope, key)
    this.#remember(scope, key, old)
    return old
  }

  set(scope: S, key: K, value: V): void {
    if (this.capacity === 0) return
    this.#old.delete(scope, key)
    if (!this.#young.replace(scope, key, value)) this.#remember(scope, key, value)
  }

  delete(scope: S, key: K): void {
    this.#young.delete(scope, key)
    this.#old.delete(scope, key)
  }

  clear(): void {
    this.#young = new Generation()
    this.#old = new Generation()
  }

  #remember(scope: S, key: K, value: V): void {
    if (this.#young.size >= this.#generation) {
      // With room for one entry only, there is no old generation to keep.
      this.#old = this.capacity > 1 ? this.#young : new Generation()
      this.#young = new Generation()
    }
    this.#young.add(scope, key, value)
  }
}

/** One generation: per scope, its keys' entries, and how many entries in all. */
class Generation<S, K, V> {
  size = 0
  readonly #scopes = new Map<S, Map<K, V>>()

  get(scope: S, key: K): V | undefined {
    return this.#scopes.get(scope)?.get(key)
  }

  /** Replaces an entry it holds; false if it holds none for the key. */
  replace(scope: S, key: K, value: V): boolean {
    const entries = this.#scopes.get(scope)
    if (entries === undefined || !entries.has(key)) return false
    entries.set(key, value)
    return true
  }

  /** Adds an entry it does not hold yet. */
  add(scope: S, key: K, value: V): void {
    let entries = this.#scopes.get(scope)
    if (entries === undefined) {
      entries = new Map()
      this.#scopes.set(scope, entries)
    }
    entries.set(key, value)
    this.size++
  }

  delete(scope: S, key: K): void {
    if (this.#scopes.get(scope)?.delete(key)) this.size--
  }
}
