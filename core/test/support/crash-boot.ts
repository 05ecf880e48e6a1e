// A bot in a child process, for what only a real process can show: killed with SIGKILL in the
// middle of a burst, then started again on the same folder. It runs the channel spore under test
// and a `burst` enzyme whose command replies N times at once.
import { writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { loadConfig } from '../../boot/config.ts'
import { createPluginStore, openStore } from '../../store/index.ts'
import { type Booted, startBoot, writeSpore } from '../boot/process.ts'
import { scratchFolder } from '../store/scratch.ts'
import { seedStore } from './boot.ts'
import { realSpore } from './real-spores.ts'

/** `/burst <count>` replies `burst #0` … `burst #<count-1>` all at once, then logs `burst accepted`. */
const BURST_SPORE = {
  'spore.yaml': [
    'kind: enzyme',
    'name: burst',
    'septum: "^1.0"',
    'commands:',
    '  - name: burst',
    '    description: burst.description',
    '    code: burst',
    '    args:',
    '      - name: count',
    '        description: burst.count',
    '',
  ].join('\n'),
  'src/index.ts': `export default {
  create: () => ({
    handlers: {
      async burst(invocation, ctx) {
        const count = Number(invocation.args.count)
        await Promise.all(Array.from({ length: count }, (_, index) => ctx.reply({ text: \`burst #\${index}\` })))
        ctx.logger.info('burst accepted', { count })
      },
    },
  }),
}
`,
}

export interface CrashRig {
  readonly folder: string
  /** Starts the bot in a child process on the folder (again, after a kill). */
  start(): Booted
  remove(): void
}

/** A folder with mycelo.yaml, the channel spore, the burst enzyme and the channel's settings. */
export function crashRig(options: {
  readonly channelFolder: string
  readonly owner: { readonly channel: string; readonly userId: string }
  readonly settings: Record<string, Record<string, unknown>>
}): CrashRig {
  const scratch = scratchFolder('crash')
  const folder = scratch.path
  const spores = join(folder, 'spores')
  writeSpore(spores, basename(options.channelFolder), realSpore(options.channelFolder))
  writeSpore(spores, 'burst', BURST_SPORE)
  const configFile = join(folder, 'mycelo.yaml')
  writeFileSync(
    configFile,
    [
      'spores: [spores]',
      'database: mycelo.db',
      `owner: { channel: ${options.owner.channel}, userId: "${options.owner.userId}" }`,
      'http: { enabled: false }',
      '',
    ].join('\n'),
  )
  const store = openStore({ path: loadConfig({ path: configFile, env: {} }).database })
  try {
    seedStore({ settings: options.settings })(store, createPluginStore(store))
  } finally {
    store.close()
  }
  return {
    folder,
    start: () => startBoot(configFile, { MYCELO_LOG_LEVEL: 'info' }),
    remove: () => scratch.remove(),
  }
}

/** Stops a child started by the rig, by SIGTERM, and waits for it. */
export async function stopChild(booted: Booted): Promise<void> {
  if (booted.child.exitCode !== null || booted.child.signalCode !== null) return
  booted.child.kill('SIGTERM')
  await booted.exited()
}
