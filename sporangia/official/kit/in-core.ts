// What the official channels' end-to-end tests share: the real help spore they answer with, a
// channel's health as /health reads it, and waiting for what the running core logs or records.
import { join } from 'node:path'
import type { RhizaHealth } from '@mycelo/septum'
import { healthRead } from '../../../core/mycelium/health.ts'
import type { CoreWith, LogRecord } from '../../../core/test/support/boot-core.ts'

/** The help spore's folder, and the line its answer gives for /help itself. */
export const HELP = join(import.meta.dir, '..', '..', '..', 'spores', 'help')
export const HELP_LINE = '/help [command] — List the commands you can run here, or explain one of them'

/** One channel's line of /health, asked now. */
export async function healthOf(core: CoreWith, channel: string): Promise<RhizaHealth | undefined> {
  const all = await healthRead(core.running.assembly!.runtime).health()
  return all.find((entry) => entry.name === channel)
}

/** Polls `check` until it holds, or gives up after `timeoutMs` (the caller's expectations then say what is missing). */
export async function until(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check() && Date.now() < deadline) await Bun.sleep(20)
}

/** The log lines since `mark` whose message starts with `prefix`, once there are `count` (or the wait is over). */
export async function loggedSince(
  core: CoreWith,
  options: { readonly mark: number; readonly prefix: string; readonly count: number },
): Promise<LogRecord[]> {
  const lines = () =>
    core
      .logs()
      .slice(options.mark)
      .filter((line) => String(line.msg).startsWith(options.prefix))
  await until(() => lines().length >= options.count)
  return lines()
}
