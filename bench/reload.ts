// Reloading a spore in the running bot while messages keep coming: how long a reload takes with the
// message path under load, how many messages waited or were told to retry meanwhile, and whether a
// hundred reloads (each a fresh module instance) grow the process without bound.
import { join } from 'node:path'
import { greeterModule, liveLog } from '../core/test/supervision/live-spores.ts'
import { realSpore } from '../core/test/support/real-spores.ts'
import { startTestCore } from '../core/test/support/runtime.ts'
import { percentile } from './figures.ts'

export interface ReloadFigures {
  readonly reloads: number
  readonly p50Ms: number
  readonly p99Ms: number
  /** Messages sent while a reload ran, over all reloads. */
  readonly duringReload: number
  /** Of those, answered "restarting, try again" rather than by the spore. */
  readonly toldToRetry: number
  /** Sent and never answered: must be zero, or the run throws. */
  readonly lost: number
  readonly rssBeforeMiB: number
  readonly rssAfterMiB: number
}

/** The entry imports a file of its own, so each reload evaluates a graph, not one file. */
const withHelper = (entry: string) => `import { words } from './words.ts'\nvoid words\n${entry}`
const helperModule = (version: string) =>
  `export const words = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => `${version}-${i}`))}\n`

const GREETER = {
  'spore.yaml': `kind: enzyme
name: greeter
septum: "^1.0"
commands:
  - name: greet
    description: greet.description
    code: greet
`,
  'src/index.ts': withHelper(greeterModule('v1')),
  'src/words.ts': helperModule('v1'),
  'translations/en.yaml': 'greet:\n  description: Greets you\n',
}

const mib = () => process.memoryUsage().rss / 2 ** 20

/** `reloads` reloads of one spore, each with `load` messages for it sent while it runs. */
export async function reloadUnderLoad(reloads: number, load = 20): Promise<ReloadFigures> {
  liveLog()
  const core = await startTestCore({
    spores: { admin: realSpore('admin'), greeter: GREETER },
    logLevel: 'warn',
  })
  try {
    const lifecycle = core.assembly.runtime.lifecycle
    const source = join(core.folder, 'spores', 'greeter', 'src', 'index.ts')
    const helper = join(core.folder, 'spores', 'greeter', 'src', 'words.ts')
    // Warm: the first reloads pay for compiling; the figure is the steady cost.
    for (let warm = 0; warm < 5; warm++) await lifecycle.restart('greeter', { fresh: true })
    Bun.gc(true)
    const rssBeforeMiB = mib()
    const times = new Float64Array(reloads)
    let duringReload = 0
    const before = core.sent.length
    for (let round = 0; round < reloads; round++) {
      await Bun.write(source, withHelper(greeterModule(`v${round}`)))
      await Bun.write(helper, helperModule(`v${round}`))
      const started = performance.now()
      const reload = lifecycle.restart('greeter', { fresh: true })
      const messages = Array.from({ length: load }, () => core.say('/greet'))
      duringReload += load
      await Promise.all([reload, ...messages])
      times[round] = performance.now() - started
    }
    const texts = core.sent.slice(before).map((sent) => sent.content.text ?? '')
    const toldToRetry = texts.filter((text) => text.includes('is restarting')).length
    const greeted = texts.filter((text) => text.startsWith('hello from v')).length
    const lost = duringReload - toldToRetry - greeted
    if (lost !== 0) throw new Error(`${lost} messages sent during reloads were never answered`)
    Bun.gc(true)
    const rssAfterMiB = mib()
    times.sort()
    return {
      reloads,
      p50Ms: percentile(times, 50),
      p99Ms: percentile(times, 99),
      duringReload,
      toldToRetry,
      lost,
      rssBeforeMiB,
      rssAfterMiB,
    }
  } finally {
    await core.stop()
  }
}
