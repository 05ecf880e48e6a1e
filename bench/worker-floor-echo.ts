// The far end of the worker floor (bench/worker-floor.ts): answers each message at once, either as
// a posted message or as a counter in shared memory it waits on without blocking its event loop.
const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent) => void) | null
  postMessage(message: unknown): void
}

/** Atomics.waitAsync, which Bun has and the TypeScript lib this checkout targets does not declare. */
const waitAsync = (
  Atomics as unknown as {
    waitAsync(typed: Int32Array, index: number, value: number): { async: boolean; value: unknown }
  }
).waitAsync

scope.onmessage = (event: MessageEvent) => {
  const data = event.data as { t: 'atomics'; flags: Int32Array } | string
  if (typeof data === 'object' && data.t === 'atomics') {
    void answerCounts(data.flags)
    return
  }
  scope.postMessage(data)
}

/** Index 0 counts the main thread's pings, 1 this side's pongs; a ping of -1 ends it. */
async function answerCounts(flags: Int32Array): Promise<void> {
  let seen = 0
  for (;;) {
    const waited = waitAsync(flags, 0, seen)
    if (waited.async) await waited.value
    seen = Atomics.load(flags, 0)
    if (seen < 0) return
    Atomics.store(flags, 1, seen)
    Atomics.notify(flags, 1)
  }
}
