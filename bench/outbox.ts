// The durable outbox's cost on the send path: the same sends to the chat hypha, one after another,
// through the outbox (a row written before acceptance, deleted once sent) and straight to the
// hypha's send with its deadline, interleaved in one run.

import { startBenchCore } from './core.ts'
import type { Timing } from './figures.ts'

export async function outboxCost(count: number): Promise<{ durable: Timing; direct: Timing }> {
  const bench = await startBenchCore({ inhibitors: 0 })
  try {
    const { runtime } = bench.core.assembly
    const sent = bench.core.sent
    const run = async (send: (index: number) => Promise<void>): Promise<Timing> => {
      const times = new Float64Array(count)
      const started = performance.now()
      for (let index = 0; index < count; index++) {
        const at = performance.now()
        await send(index)
        times[index] = performance.now() - at
      }
      const seconds = (performance.now() - started) / 1000
      await runtime.outbox.settled()
      if (sent.length !== count)
        throw new Error(`bench: ${sent.length} of ${count} messages reached the hypha`)
      sent.length = 0
      times.sort()
      const at = (p: number) => times[Math.min(count - 1, Math.floor((p / 100) * count))]!
      return { messages: count, perSecond: count / seconds, p50Ms: at(50), p99Ms: at(99) }
    }
    const target = (index: number) => ({ channel: 'chat', conversationId: `room-${index % 50}` })
    const direct = await run((index) => runtime.hyphae.attempt(target(index), { text: `direct ${index}` }))
    const durable = await run((index) => runtime.hyphae.send(target(index), { text: `durable ${index}` }))
    return { durable, direct }
  } finally {
    await bench.stop()
  }
}
