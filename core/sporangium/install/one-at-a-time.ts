/** The change in progress per spore: a second install, rollback or uninstall waits for the first. */
const running = new Map<string, Promise<unknown>>()

/**
 * Runs `change` once every earlier change of the same spore in this process has settled: two of
 * them interleaved would each move the other's folders.
 */
export function oneAtATime<T>(spore: string, change: () => Promise<T>): Promise<T> {
  const previous = running.get(spore) ?? Promise.resolve()
  const next = previous.then(change, change)
  const settled = next.then(
    () => undefined,
    () => undefined,
  )
  running.set(spore, settled)
  void settled.then(() => {
    if (running.get(spore) === settled) running.delete(spore)
  })
  return next
}
