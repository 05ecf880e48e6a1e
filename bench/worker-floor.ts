// The floor under a command for an isolated enzyme, measured in the same run: the main thread and a
// Bun Worker doing nothing but answer each other. A command that needs one round trip cannot beat
// the first figure; the second is the same wake-up through shared memory (Atomics.waitAsync).
import { type Timing, timingOf } from './figures.ts'

const ECHO = new URL('./worker-floor-echo.ts', import.meta.url).href

/** Atomics.waitAsync, which Bun has and the TypeScript lib this checkout targets does not declare. */
const waitAsync = (
  Atomics as unknown as {
    waitAsync(typed: Int32Array, index: number, value: number): { async: boolean; value: unknown }
  }
).waitAsync

export interface WorkerFloor {
  /** A message posted each way, one after the other. */
  readonly postMessage: Timing
  /** A counter in a SharedArrayBuffer, each side woken by Atomics.notify. */
  readonly atomics: Timing
}

export async function workerFloor(count: number): Promise<WorkerFloor> {
  const worker = new Worker(ECHO, { smol: true })
  try {
    let answered: () => void = () => undefined
    worker.onmessage = () => answered()
    const ping = () =>
      new Promise<void>((resolve) => {
        answered = resolve
        worker.postMessage('ping')
      })
    await timed(Math.min(500, count), ping)
    const postMessage = await timed(count, ping)

    const flags = new Int32Array(new SharedArrayBuffer(8))
    worker.postMessage({ t: 'atomics', flags })
    let sent = 0
    const knock = async () => {
      sent += 1
      Atomics.store(flags, 0, sent)
      Atomics.notify(flags, 0)
      for (let seen = Atomics.load(flags, 1); seen !== sent; seen = Atomics.load(flags, 1)) {
        const waited = waitAsync(flags, 1, seen)
        if (waited.async) await waited.value
      }
    }
    await timed(Math.min(500, count), knock)
    const atomics = await timed(count, knock)
    Atomics.store(flags, 0, -1)
    Atomics.notify(flags, 0)
    return { postMessage, atomics }
  } finally {
    worker.terminate()
  }
}

async function timed(count: number, roundTrip: () => Promise<void>): Promise<Timing> {
  const latencies = new Float64Array(count)
  const started = performance.now()
  for (let i = 0; i < count; i++) {
    const t0 = performance.now()
    await roundTrip()
    latencies[i] = performance.now() - t0
  }
  return timingOf(latencies, performance.now() - started)
}
