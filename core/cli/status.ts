import type { CoreText } from '../boot/catalogues.ts'
import type { Logging } from '../boot/log.ts'
import { reportText } from '../boot/report-text.ts'
import { startUp } from '../boot/startup.ts'
import { report } from '../germination/index.ts'
import { type LockHolder, lockHolder } from '../store/instance-lock.ts'
import { readSnapshot, snapshotPathOf } from '../supervision/snapshot.ts'
import { describeSupervised } from '../supervision/supervised.ts'
import type { Answer } from './answer.ts'

/**
 * The report `bun run boot --check` prints, from the same check (a copy of the database, nothing
 * started), and whether a bot holds the database now.
 */
export async function status(options: {
  logging: Pick<Logging, 'logger' | 'setSecrets'>
  text: (locale: string) => CoreText
  env?: Readonly<Record<string, string | undefined>>
}): Promise<Answer> {
  const started = await startUp({
    logging: options.logging,
    check: true,
    ...(options.env ? { env: options.env } : {}),
  })
  if (!started.ok) {
    const t = options.text(started.config?.defaultLocale ?? 'en')
    return { code: 1, text: t('boot.refused', { reason: started.error }) }
  }
  const running = started.value
  try {
    const t = options.text(running.config.defaultLocale)
    const holder = lockHolder(running.config.database)
    const lines = report(running.germination, notLiveIn(running.config.database, holder, t))
    const live = lines.filter((line) => line.state === 'live').length
    const text = [
      reportText(lines, {
        t,
        locale: running.config.defaultLocale,
        folders: running.config.spores,
      }).trimEnd(),
      t('boot.couldStart', { live, total: lines.length }),
      holder ? t('cli.running', { pid: holder.pid, startedAt: holder.startedAt }) : t('cli.stopped'),
    ]
    return { code: 0, text: text.join('\n') }
  } finally {
    running.store.close()
  }
}

/**
 * Beside a running bot, a channel or system it cannot reach reads as the bot's own surfaces say
 * (`reconnecting (attempt n, next in s)`, `unreachable`), from the states the bot keeps on disk.
 */
function notLiveIn(database: string, holder: LockHolder | undefined, t: CoreText) {
  const path = snapshotPathOf(database)
  const states = holder === undefined || path === undefined ? undefined : readSnapshot(path, holder.pid)
  return (name: string): string | undefined => {
    const supervised = states?.get(name)
    if (supervised === undefined || supervised.state === 'live' || supervised.state === 'stopped')
      return undefined
    return describeSupervised(supervised, (key, params) => t(`supervision.${key}`, params))
  }
}
