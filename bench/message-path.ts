// The message path under load: N messages from an in-memory hypha through two inhibitors,
// principal and locale resolution from the store, authorisation, and a respond: and a code:
// command, next to a floor: the same hypha calling the handler directly.
import { inhibitor } from '../core/test/rhizomorph/spores.ts'
import { startTestCore } from '../core/test/support/runtime.ts'
import { BENCH_ENZYME } from './spores.ts'

export interface PathFigures {
  readonly messages: number
  readonly perSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly peakRssMiB: number
  readonly floorPerSecond: number
  readonly floorP99Ms: number
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

export async function messagePath(count: number): Promise<PathFigures> {
  const core = await startTestCore({
    spores: { bench: BENCH_ENZYME, gate: inhibitor('gate'), wall: inhibitor('wall', { enforcing: true }) },
    // A few senders, so principal resolution is exercised and not a single cache line.
    roles: { crowd: ['bench.*'] },
    grants: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`user${i}`, ['crowd']])),
    logLevel: 'warn',
  })
  const chat = core.germination.byName.get('chat')!.instance as { say(m: unknown): Promise<void> }
  const sent = core.sent
  const message = (i: number) => ({
    channel: 'chat',
    conversationId: `room${i % 20}`,
    messageId: `m${i}`,
    sender: { channel: 'chat', externalId: `user${i % 50}` },
    text: i % 2 === 0 ? '/ping' : `/echo hello ${i}`,
    attachments: [],
    raw: null,
    receivedAt: new Date(),
  })
  // Warm the caches and the JIT the way a running bot would be warm.
  for (let i = 0; i < 2000; i++) await chat.say(message(i))
  sent.length = 0
  const latencies = new Float64Array(count)
  let peakRss = process.memoryUsage().rss
  const started = performance.now()
  for (let i = 0; i < count; i++) {
    const t0 = performance.now()
    await chat.say(message(i))
    latencies[i] = performance.now() - t0
    if (i % 1000 === 0) {
      peakRss = Math.max(peakRss, process.memoryUsage().rss)
      sent.length = 0
    }
  }
  const elapsed = performance.now() - started
  peakRss = Math.max(peakRss, process.memoryUsage().rss)
  latencies.sort()

  // The floor: the same work a handler does, called directly, with no path around it.
  const enzyme = core.germination.byName.get('bench')!.instance as {
    handlers: Record<string, (i: unknown, c: unknown) => Promise<void>>
  }
  const floorContext = {
    t: (_key: string, params: { text: string }) => `echo: ${params.text}`,
    reply: async (content: unknown) => {
      sent.push({ conversationId: 'room', content: content as never })
    },
  }
  const floorLatencies = new Float64Array(count)
  const floorStarted = performance.now()
  for (let i = 0; i < count; i++) {
    const t0 = performance.now()
    const m = message(i)
    if (i % 2 === 0) await floorContext.reply({ text: 'pong' })
    else
      await enzyme.handlers.echo!(
        { command: 'echo', args: { text: m.text.slice(6) }, rest: '', message: m },
        floorContext,
      )
    floorLatencies[i] = performance.now() - t0
    if (i % 1000 === 0) sent.length = 0
  }
  const floorElapsed = performance.now() - floorStarted
  floorLatencies.sort()
  await core.stop()
  return {
    messages: count,
    perSecond: count / (elapsed / 1000),
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    peakRssMiB: peakRss / 1024 / 1024,
    floorPerSecond: count / (floorElapsed / 1000),
    floorP99Ms: percentile(floorLatencies, 99),
  }
}
