// The durable outbox's cost on the send path: the same sends to the chat hypha, one after another,
// through the outbox and straight to the hypha's send with its deadline, in alternating blocks of
// one run, so a shared machine's load weighs on both sides alike.

import { startBenchCore } from './core.ts'
import type { Timing } from './figures.ts'

const BLOCK = 500

export async function outboxCost(count: number): Promise<{ durable: Timing; direct: Timing }> {
  const bench = await startBenchCore({ inhibitors: 0 })
  try {
    const { runtime } = bench.core.assembly
    const sent = bench.core.sent
    const target = (index: number) => ({ channel: 'chat', conversationId: `room-${index % 50}` })
    const sides = {
      direct: side((index) => runtime.hyphae.attempt(target(index), { text: `direct ${index}` }), count),
      durable: side((index) => runtime.hyphae.send(target(index), { text: `durable ${index}` }), count),
    }
    for (let from = 0; from < count; from += BLOCK) {
      for (const one of [sides.direct, sides.durable]) {
        await one.block(from, Math.min(count, from + BLOCK))
        await runtime.outbox.settled()
        if (sent.length !== Math.min(count, from + BLOCK) - from)
          throw new Error(`bench: ${sent.length} of the block's messages reached the hypha`)
        sent.length = 0
      }
    }
    if (runtime.outbox.waiting() !== 0) throw new Error('bench: messages still wait in the outbox')
    return { durable: sides.durable.timing(), direct: sides.direct.timing() }
  } finally {
    await bench.stop()
  }
}

/** One way of sending, timed per message over the blocks it is given. */
function side(send: (index: number) => Promise<void>, count: number) {
  const times = new Float64Array(count)
  let seconds = 0
  return {
    async block(from: number, to: number): Promise<void> {
      const started = performance.now()
      for (let index = from; index < to; index++) {
        const at = performance.now()
        await send(index)
        times[index] = performance.now() - at
      }
      seconds += (performance.now() - started) / 1000
    },
    timing(): Timing {
      times.sort()
      const at = (p: number) => times[Math.min(count - 1, Math.floor((p / 100) * count))]!
      return { messages: count, perSecond: count / seconds, p50Ms: at(50), p99Ms: at(99) }
    },
  }
}
