// `bun run mycelo dev <folder>`: the bot on the console channel with that spore, reloaded on save
// through the very reload /admin.reload asks for (import the new module, then swap).
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  watch,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseManifest, type TranslatableRef } from '@mycelo/septum'
import { parse, stringify } from 'yaml'
import type { Logging } from '../boot/log.ts'
import { type Running, startUp } from '../boot/startup.ts'
import { pluginsConfigure } from '../mycelium/configure.ts'
import { pluginsToggle } from '../mycelium/plugins.ts'

/** Saves come in bursts (an editor writes, renames, touches): one reload after the last of them. */
const SETTLE_MS = 150
/** What changes in a spore's folder without being the spore. */
const IGNORED = /(^|[\\/])(node_modules|build|dist|\.git)([\\/]|$)/

export interface DevOptions {
  readonly folder: string
  /** The checkout's own spores/ (the console channel, admin and help come from there). */
  readonly checkoutSpores: string
  readonly logging: Pick<Logging, 'logger' | 'setSecrets'>
  readonly env: Readonly<Record<string, string | undefined>>
  /** Words for the author, on standard error: standard output is the console channel's. */
  readonly tell: (ref: TranslatableRef) => void
  /** Resolves when the author asks to stop (Ctrl-C). */
  readonly stopped: Promise<void>
}

/** Runs until `stopped`; answers the exit code. */
export async function runDev(options: DevOptions): Promise<number> {
  const folder = resolve(options.folder)
  const name = sporeName(folder)
  if (name === undefined) {
    options.tell({ domain: 'core', key: 'cli.devNoSpore', params: { folder } })
    return 1
  }
  const place = mkdtempSync(join(tmpdir(), 'mycelo-dev-'))
  try {
    const config = writeConfig({ place, folder, name, checkoutSpores: options.checkoutSpores })
    const started = await startUp({
      logging: options.logging,
      check: false,
      env: { ...options.env, MYCELO_CONFIG: config },
    })
    if (!started.ok) {
      options.tell({ domain: 'core', key: 'cli.devRefused', params: { reason: started.error } })
      return 1
    }
    const running = started.value
    try {
      // The console reads standard input only from a terminal unless told: here it always does, piped too.
      await pluginsConfigure(running.assembly!.runtime, running.plugins).setSetting(
        'console',
        'interactive',
        'always',
      )
      tellStanding(running, name, options.tell)
      options.tell({ domain: 'core', key: 'cli.devStarted', params: { name, folder } })
      const watcher = watchFolder(folder, () => reload(running, name, options))
      await options.stopped
      watcher.close()
      return 0
    } finally {
      await running.stop()
    }
  } finally {
    rmSync(place, { recursive: true, force: true })
  }
}

function sporeName(folder: string): string | undefined {
  const path = join(folder, 'spore.yaml')
  if (!existsSync(path)) return undefined
  try {
    return parseManifest(parse(readFileSync(path, 'utf8'))).name
  } catch {
    // A manifest that does not parse still names its spore; germination says what is wrong with it.
    const named = (parse(readFileSync(path, 'utf8')) as { name?: unknown } | null)?.name
    return typeof named === 'string' ? named : undefined
  }
}

/** A bot of its own in a temporary folder: its database, no page, the spore linked in beside the checkout's. */
function writeConfig(o: { place: string; folder: string; name: string; checkoutSpores: string }): string {
  const linked = join(o.place, 'spores')
  mkdirSync(linked)
  symlinkSync(o.folder, join(linked, o.name), 'dir')
  const path = join(o.place, 'mycelo.yaml')
  writeFileSync(
    path,
    stringify({
      spores: [o.checkoutSpores, linked],
      database: join(o.place, 'mycelo.db'),
      http: { enabled: false },
      // In the bot's own thread, so a reload and its errors are the ones the author reads here.
      isolation: { spores: { [o.name]: 'inline' } },
    }),
  )
  return path
}

function tellStanding(running: Running, name: string, tell: DevOptions['tell']): void {
  const line = running.report().find((each) => each.name === name)
  if (line === undefined || line.state === 'live') return
  tell({ domain: 'core', key: 'cli.devDormant', params: { name, reason: line.reason ?? line.state } })
}

async function reload(running: Running, name: string, options: DevOptions): Promise<void> {
  const runtime = running.assembly!.runtime
  // Optional in the contract for older cores; this core's own always has it.
  const outcome = await pluginsToggle(runtime, running.plugins).reload!(name)
  if (!outcome.ok) return options.tell(outcome.refusal)
  const spore = running.germination.byName.get(name)
  if (spore?.state === 'live')
    return options.tell({ domain: 'core', key: 'cli.devReloaded', params: { name } })
  tellStanding(running, name, options.tell)
}

/** Calls `onChange` once a burst of saves has settled, never two at once, again if saved meanwhile. */
function watchFolder(folder: string, onChange: () => Promise<void>): { close(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined
  let running: Promise<void> | undefined
  let again = false
  const fire = () => {
    if (running !== undefined) {
      again = true
      return
    }
    running = onChange().finally(() => {
      running = undefined
      if (again) {
        again = false
        fire()
      }
    })
  }
  const watcher = watch(folder, { recursive: true }, (_event, file) => {
    if (file !== null && IGNORED.test(String(file))) return
    clearTimeout(timer)
    timer = setTimeout(fire, SETTLE_MS)
  })
  return {
    close() {
      clearTimeout(timer)
      watcher.close()
    },
  }
}
