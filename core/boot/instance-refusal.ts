import type { LockHolder } from '../store/instance-lock.ts'
import { coreCatalogues, coreText } from './catalogues.ts'

/** Names the bot holding the database, so the operator can find it (or see it is gone). */
export function heldBy(holder: LockHolder, options: { database: string; defaultLocale: string }): string {
  const t = coreText(coreCatalogues().core, options.defaultLocale)
  return t('instance.held', { database: options.database, pid: holder.pid, startedAt: holder.startedAt })
}
