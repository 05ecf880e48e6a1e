import type { CoreText } from '../boot/catalogues.ts'
import type { Logging } from '../boot/log.ts'
import { reportText } from '../boot/report-text.ts'
import { startUp } from '../boot/startup.ts'
import { lockHolder } from '../store/instance-lock.ts'
import type { Answer } from './commands.ts'

/**
 * The report `bun run boot --check` prints, from the same check (a copy of the database, nothing
 * started), and whether a bot holds the database now.
 */
export async function status(options: {
  logging: Pick<Logging, 'logger' | 'setSecrets'>
  text: (locale: string) => CoreText
}): Promise<Answer> {
  const started = await startUp({ logging: options.logging, check: true })
  if (!started.ok) {
    const t = options.text(started.config?.defaultLocale ?? 'en')
    return { code: 1, text: t('boot.refused', { reason: started.error }) }
  }
  const running = started.value
  try {
    const t = options.text(running.config.defaultLocale)
    const lines = running.report()
    const live = lines.filter((line) => line.state === 'live').length
    const holder = lockHolder(running.config.database)
    const text = [
      reportText(lines, { t, folders: running.config.spores }).trimEnd(),
      t('boot.couldStart', { live, total: lines.length }),
      holder ? t('cli.running', { pid: holder.pid, startedAt: holder.startedAt }) : t('cli.stopped'),
    ]
    return { code: 0, text: text.join('\n') }
  } finally {
    running.store.close()
  }
}
