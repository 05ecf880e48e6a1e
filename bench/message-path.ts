// The message path in process: steady state (cached principals), cold lookups against a large
// store, first contact, and the cost of twenty inhibitors against one. Every reply is checked.
import { openStore } from '../core/store/index.ts'
import { type BenchCore, seedCrowd, startBenchCore } from './core.ts'
import { chatMessage, percentile, type Timing, timePath } from './figures.ts'

/** Half /ping (respond:), half /echo (code:), from `senders` people cycling. */
function steadyRun(bench: BenchCore, count: number, senders: number, offset = 0) {
  return {
    count,
    sent: bench.core.sent,
    say: (i: number) =>
      bench.chat.say(
        chatMessage({
          i,
          from: `p${(i + offset) % senders}`,
          text: i % 2 === 0 ? '/ping' : `/echo hello ${i}`,
        }),
      ),
    expected: (i: number) => (i % 2 === 0 ? 'pong' : `echo: hello ${i}`),
  }
}

/** Runs a path twice: a warm-up the size of `warm`, then the measured one. */
async function measured(bench: BenchCore, count: number, senders: number, warm = 2000): Promise<Timing> {
  await timePath(steadyRun(bench, warm, senders, 1))
  return timePath(steadyRun(bench, count, senders))
}

/**
 * How many messages JSC takes to stop compiling a message path: a function reaches its last tier
 * (FTL) after some 100,000 calls, and until then compiler threads share the machine with the path.
 */
export const JIT_WARM_UP = Number(process.env.BENCH_JIT_WARM_UP ?? 150_000)

/**
 * Steady state: two inhibitors, 50 cached senders; beside it the handler called directly, and the
 * same path measured again once `jitWarmUp` more messages have gone (`settled`).
 */
export async function steadyState(
  count: number,
  jitWarmUp = JIT_WARM_UP,
): Promise<Timing & { floor: Timing; settled: Timing }> {
  const bench = await startBenchCore({ inhibitors: 2, seed: seedCrowd({ people: 50, roles: 0 }) })
  try {
    const path = await measured(bench, count, 50)
    const floor = await handlerFloor(bench, count)
    return { ...path, floor, settled: await measured(bench, count, 50, jitWarmUp) }
  } finally {
    await bench.stop()
  }
}

/** The same work a handler does, called directly, with no path around it. */
async function handlerFloor(bench: BenchCore, count: number): Promise<Timing> {
  const enzyme = bench.core.germination.byName.get('bench')!.instance as {
    handlers: Record<string, (i: unknown, c: unknown) => Promise<void>>
  }
  const sent = bench.core.sent
  const context = {
    t: (_key: string, params: { text: string }) => `echo: ${params.text}`,
    reply: async (content: unknown) => {
      sent.push({ conversationId: 'room', content: content as never })
    },
  }
  return timePath({
    count,
    sent,
    expected: (i) => (i % 2 === 0 ? 'pong' : `echo: hello ${i}`),
    say: async (i) => {
      if (i % 2 === 0) return context.reply({ text: 'pong' })
      const message = chatMessage({ i, from: 'p0', text: `/echo hello ${i}` })
      await enzyme.handlers.echo!(
        { command: 'echo', args: { text: `hello ${i}` }, rest: '', message },
        context,
      )
    },
  })
}

/**
 * Principals read from the store at every message (memory off), from a store of `people`; given
 * `jitWarmUp`, the same measured again once that many more have gone (`settled`), as the steady
 * state's is.
 */
export async function coldLookups(options: {
  count: number
  people: number
  roles: number
  jitWarmUp?: number
}): Promise<Timing & { settled?: Timing }> {
  const bench = await startBenchCore({
    inhibitors: 2,
    seed: seedCrowd({ people: options.people, roles: options.roles }),
    directoryCapacity: 0,
  })
  try {
    // Senders spread over the whole store, so no page of it stays the only one read.
    const stride = 7919
    const spread = (count: number, offset: number) => ({
      ...steadyRun(bench, count, 1),
      say: (i: number) =>
        bench.chat.say(
          chatMessage({
            i,
            from: `p${((i + offset) * stride) % options.people}`,
            text: i % 2 === 0 ? '/ping' : `/echo hello ${i}`,
          }),
        ),
    })
    // The same warm-up as the steady state's, from other senders: what is measured is a bot that
    // has been running, every message still read from the store, not its first seconds.
    await timePath(spread(2000, options.count))
    const path = await timePath(spread(options.count, 0))
    if (options.jitWarmUp === undefined) return path
    await timePath(spread(options.jitWarmUp, options.count))
    return { ...path, settled: await timePath(spread(options.count, 0)) }
  } finally {
    await bench.stop()
  }
}

/** A new person on every message, each given the default role; all of them on disk afterwards. */
export async function firstContact(count: number): Promise<Timing & { durable: number }> {
  const bench = await startBenchCore({ inhibitors: 2 })
  try {
    const timing = await timePath({
      count,
      sent: bench.core.sent,
      say: (i) => bench.chat.say(chatMessage({ i, from: `newcomer${i}`, text: '/ping', room: `dm${i}` })),
      expected: () => 'pong',
    })
    // Another connection reads what the bot committed: every newcomer answered is there.
    const other = openStore({ path: bench.core.store.path })
    const durable = (
      other.db.$client
        .query("SELECT count(*) AS n FROM channel_identities WHERE external_id LIKE 'newcomer%'")
        .get() as { n: number }
    ).n
    other.close()
    if (durable !== count) throw new Error(`bench: ${count} newcomers answered but ${durable} on disk`)
    return { ...timing, durable }
  } finally {
    await bench.stop()
  }
}

/** The same steady path with `n` inhibitors. */
export async function withInhibitors(n: number, count: number): Promise<Timing> {
  const bench = await startBenchCore({ inhibitors: n, seed: seedCrowd({ people: 50, roles: 0 }) })
  try {
    return await measured(bench, count, 50)
  } finally {
    await bench.stop()
  }
}

export { percentile }
