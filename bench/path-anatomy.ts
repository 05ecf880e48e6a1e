// `bun bench/path-anatomy.ts`: what one steady-state message costs beyond its time, by kind (/ping,
// /echo): the heap cells it allocates, by type (no load on the machine moves that), and how often a
// message is slow and how far apart the slow ones are (a period shows only on a quiet machine: under
// load, other processes' turns fill the short gaps). The steady scenario's core and messages.
import { heapStats } from 'bun:jsc'
import { type BenchCore, seedCrowd, startBenchCore } from './core.ts'
import { chatMessage } from './figures.ts'

const WARM = Number(process.env.ANATOMY_WARM ?? 150_000)
const WINDOW = 1_000
const WINDOWS = 7
const TIMED = 100_000

type Kind = 'ping' | 'echo'

function messages(kind: Kind, count: number, offset: number) {
  return Array.from({ length: count }, (_, n) => {
    const i = n + offset
    return chatMessage({ i, from: `p${i % 50}`, text: kind === 'ping' ? '/ping' : `/echo hello ${i}` })
  })
}

async function say(bench: BenchCore, batch: readonly unknown[]): Promise<Float64Array> {
  const took = new Float64Array(batch.length)
  const sent = bench.core.sent
  for (let i = 0; i < batch.length; i++) {
    const started = performance.now()
    await bench.chat.say(batch[i])
    took[i] = performance.now() - started
    // Every reply is checked by the bench; here only their count matters, kept from growing.
    if (sent.length > 1_000) sent.length = 0
  }
  return took
}

/**
 * Cells per message, by type: counted before and after a window of messages made beforehand, with
 * no collection between. The fewest of several windows: JSC still sinks some objects as it compiles.
 */
async function cellsPerMessage(bench: BenchCore, kind: Kind): Promise<{ total: number; byType: string }> {
  let fewest: { total: number; byType: string } | undefined
  for (let w = 0; w < WINDOWS; w++) {
    const batch = messages(kind, WINDOW, 1_000_000 + w * WINDOW)
    Bun.gc(true)
    const before = heapStats().objectTypeCounts
    await say(bench, batch)
    const after = heapStats().objectTypeCounts
    const types: [string, number][] = []
    for (const type of new Set([...Object.keys(before), ...Object.keys(after)])) {
      const each = ((after[type] ?? 0) - (before[type] ?? 0)) / WINDOW
      if (each >= 0.05) types.push([type, each])
    }
    const total = types.reduce((sum, [, each]) => sum + each, 0)
    if (fewest === undefined || total < fewest.total) {
      types.sort((a, b) => b[1] - a[1])
      fewest = { total, byType: types.map(([type, each]) => `${type} ${each.toFixed(2)}`).join(', ') }
    }
  }
  return fewest!
}

/** Messages slower than three medians: how often, their share of the time, and the commonest gaps. */
function slowOnes(took: Float64Array): string {
  const sorted = Float64Array.from(took).sort()
  const median = sorted[sorted.length >> 1]!
  const gaps = new Map<number, number>()
  let last = -1
  let slow = 0
  let slowMs = 0
  let allMs = 0
  took.forEach((ms, i) => {
    allMs += ms
    if (ms <= 3 * median) return
    slow += 1
    slowMs += ms
    if (last >= 0) gaps.set(i - last, (gaps.get(i - last) ?? 0) + 1)
    last = i
  })
  // Gaps of a few messages are the machine's (another process ran); a period shows further out.
  const common = [...gaps]
    .filter(([gap]) => gap > 8)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([gap, times]) => `${gap} (${times}×)`)
    .join(', ')
  return (
    `p50 ${(median * 1000).toFixed(2)} µs, mean ${((allMs / took.length) * 1000).toFixed(2)} µs; ` +
    `one message in ${Math.round(took.length / slow)} over 3× p50, ${Math.round((slowMs / allMs) * 100)}% of the time; ` +
    `commonest gaps between them: ${common}`
  )
}

for (const kind of ['ping', 'echo'] as const) {
  const bench = await startBenchCore({ inhibitors: 2, seed: seedCrowd({ people: 50, roles: 0 }) })
  try {
    await say(bench, messages(kind, WARM, 0))
    const cells = await cellsPerMessage(bench, kind)
    console.log(`/${kind}: ${cells.total.toFixed(1)} cells per message (${cells.byType})`)
    console.log(`/${kind}: ${slowOnes(await say(bench, messages(kind, TIMED, 2_000_000)))}`)
  } finally {
    await bench.stop()
  }
}
