// `bun run bench`: prints figures; never part of `bun test`, and nothing here asserts.
import { messagePath } from './message-path.ts'

const count = Number(process.env.BENCH_MESSAGES ?? 100_000)
const f = await messagePath(count)
const fixed = (n: number, d = 3) => n.toFixed(d)
console.log(
  `message path: ${f.messages} messages (two inhibitors, store-backed principals and locale, respond: + code:)`,
)
console.log(`  throughput   ${fixed(f.perSecond, 0)} msg/s   (target ≥ 20000)`)
console.log(`  latency      p50 ${fixed(f.p50Ms)} ms   p99 ${fixed(f.p99Ms)} ms   (target p99 < 1 ms)`)
console.log(`  peak memory  ${fixed(f.peakRssMiB, 1)} MiB RSS`)
console.log(
  `  floor        ${fixed(f.floorPerSecond, 0)} msg/s   p99 ${fixed(f.floorP99Ms)} ms   (handler called directly)`,
)
