// Spore hosts: a command answered by an isolated enzyme against the same enzyme inline (same run),
// the resident memory each idle host costs, and how long a spinning handler takes, from its missed
// deadline, to be answering again in a new host.

import { hostKeeper } from '../core/hosts/keeper.ts'
import { FAULT_CONFIG, faultyEnzyme } from '../core/test/hosts/fault-spores.ts'
import { startTestCore } from '../core/test/support/runtime.ts'
import { chatMessage, type Timing, timePath } from './figures.ts'
import { BENCH_ENZYME } from './spores.ts'

const MIB = 1024 * 1024

/** /echo (a code: command, ICU reply) answered by the bench enzyme running `isolation`. */
export async function echoThrough(isolation: 'worker' | 'inline', count: number): Promise<Timing> {
  const core = await startTestCore({
    spores: { bench: BENCH_ENZYME },
    config: `isolation:\n  default: inline\n  spores: { bench: ${isolation} }\n`,
    logLevel: 'warn',
  })
  try {
    const chat = core.germination.byName.get('chat')!.instance as { say(message: unknown): Promise<void> }
    const run = (n: number, offset: number) =>
      timePath({
        count: n,
        sent: core.sent,
        say: (i) => chat.say(chatMessage({ i: i + offset, from: 'owner', text: `/echo hello ${i}` })),
        expected: (i) => `echo: hello ${i}`,
      })
    await run(Math.min(500, count), 1_000_000)
    return await run(count, 0)
  } finally {
    await core.stop()
  }
}

/** The process's RSS with `count` idle isolated enzymes, less the same bot with none: per host. */
export async function idleHostMiB(count: number): Promise<number> {
  const settled = async () => {
    await Bun.sleep(1_500)
    Bun.gc(true)
    await Bun.sleep(200)
    return process.memoryUsage.rss()
  }
  const spores = (n: number) =>
    Object.fromEntries(
      Array.from({ length: n }, (_, i) => [
        `idle${i}`,
        faultyEnzyme(`idle${i}`, "await ctx.reply({ text: 'hi' })"),
      ]),
    )
  const config = 'isolation:\n  default: worker\n  spores: { chat: inline }\n'
  const none = await startTestCore({ spores: spores(0), config, logLevel: 'warn' })
  const before = await settled()
  const some = await startTestCore({ spores: spores(count), config, logLevel: 'warn' })
  const after = await settled()
  if (hostKeeper.size < count) throw new Error(`bench: ${hostKeeper.size} hosts run, expected ${count}`)
  await some.stop()
  await none.stop()
  return (after - before) / count / MIB
}

/** From a spinning handler's missed deadline to its spore answering again in a new host (ms). */
export async function watchdogMs(): Promise<number> {
  const core = await startTestCore({
    spores: { spin: faultyEnzyme('spin', 'while (true) {}') },
    config: FAULT_CONFIG.replace('handler: 2000', 'handler: 1000'),
    logLevel: 'warn',
  })
  try {
    const handlerMs = core.assembly.runtime.config.timeouts.handler
    const old = hostKeeper.hostOf(core.germination.byName.get('spin')?.instance)
    const sent = performance.now()
    void core.say('/spin')
    const deadline = sent + handlerMs
    for (;;) {
      const spore = core.germination.byName.get('spin')
      const host = hostKeeper.hostOf(spore?.instance)
      if (spore?.state === 'live' && host !== undefined && host !== old && host.down === undefined) break
      if (performance.now() - sent > 60_000) throw new Error('bench: the spinning spore was never restarted')
      await Bun.sleep(2)
    }
    return performance.now() - deadline
  } finally {
    await core.stop()
  }
}

/**
 * The floor under a boot with `count` hosts: that many bare workers, with the options a host's
 * worker is started with, all started at once (as germination starts hosts) until each says ready.
 */
export async function bareWorkersMs(count: number): Promise<number> {
  const url = new URL('./bare-worker.ts', import.meta.url).href
  const started = performance.now()
  const workers = Array.from({ length: count }, () => new Worker(url, { smol: true }))
  try {
    await Promise.all(
      workers.map(
        (worker) => new Promise((resolve) => worker.addEventListener('message', resolve, { once: true })),
      ),
    )
    return performance.now() - started
  } finally {
    for (const worker of workers) worker.terminate()
  }
}
