import { availableParallelism } from 'node:os'

/**
 * How many spores are prepared at once. Each isolated one starts a worker that loads its module on
 * a thread of its own; more at once than the machine has cores only makes each one slower, and
 * every import's deadline runs while it waits for a core.
 */
export const PREPARING_AT_ONCE = Math.max(2, availableParallelism())

/** `work` on every item, at most `limit` at a time, answered in the items' order. */
export async function bounded<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await work(items[index]!)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}
