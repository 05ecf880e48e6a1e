// `bun run bench`: prints figures; never part of `bun test`, and nothing here asserts.
import { agentPath } from './agent.ts'
import { discordPath } from './discord.ts'
import { installFromLoopback } from './install.ts'
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

const discordCount = Number(process.env.BENCH_DISCORD_MESSAGES ?? 2_000)
const d = await discordPath(discordCount)
const side = (s: typeof d.core) =>
  `mean ${fixed(s.meanMs)} ms   p50 ${fixed(s.p50Ms)} ms   p99 ${fixed(s.p99Ms)} ms   cpu ${fixed(s.cpuUsPerMessage, 0)} µs/msg`
console.log(
  `discord end to end: ${d.messages} messages, each injected at the fake gateway and answered at its REST endpoint`,
)
console.log(`  core         ${side(d.core)}   (discord.js → discord spore → core → respond:)`)
console.log(`  floor        ${side(d.floor)}   (bare discord.js, channel.send on messageCreate)`)
console.log(
  `  overhead     ${d.overheadPercent >= 0 ? '+' : ''}${fixed(d.overheadPercent, 1)}% on the mean time per message   (target ≤ 20%)`,
)
console.log(
  `  paced to discord.js's 50 requests/s: ${fixed(d.wallSeconds, 1)} s wall clock, sequential bursts of ${d.burst}`,
)

const installRounds = Number(process.env.BENCH_INSTALLS ?? 20)
const i = await installFromLoopback(installRounds)
console.log(
  `install: a ${fixed(i.archiveBytes / 1_048_576, 2)} MiB signed strain from a loopback index, ${i.rounds} times (inoculate, then uninstall)`,
)
console.log(
  `  time         mean ${fixed(i.meanMs, 1)} ms   p50 ${fixed(i.p50Ms, 1)} ms   max ${fixed(i.maxMs, 1)} ms`,
)
console.log(
  `  peak memory  ${fixed(i.peakRssMiB, 1)} MiB RSS   (${fixed(i.baseRssMiB, 1)} MiB before the first install)`,
)
const a = await agentPath(Number(process.env.BENCH_AGENT_CALLS ?? 1_000))
console.log(`agent execute: ${a.calls} one-operation programs, a fresh QuickJS sandbox each call`)
console.log(
  `  round trip   p50 ${fixed(a.roundTripMs.p50)} ms   p99 ${fixed(a.roundTripMs.p99)} ms   mean ${fixed(a.roundTripMs.mean)} ms   (target < 10 ms, p99 < 25 ms)`,
)
console.log(
  `  sandbox      start p50 ${fixed(a.sandboxStartMs.p50)} ms   p99 ${fixed(a.sandboxStartMs.p99)} ms   (module loaded once in ${fixed(a.moduleLoadMs, 1)} ms)`,
)
console.log(`  full pool    ${fixed(a.perSecondAtCapacity, 0)} executes/s at capacity ${a.capacity}`)
