import type { TranslatableRef } from './i18n.ts'

/**
 * How restrictions.manage and locale.manage refuse: their promise rejects with this, so a spore
 * that only awaits them still learns it was refused. `refusal` renders in the reader's language
 * with `ctx.t(refusal)`; `message` is English, for a log.
 */
export class RefusalError extends Error {
  override readonly name = 'RefusalError'
  readonly refusal: TranslatableRef

  constructor(refusal: TranslatableRef, message: string = `refused: ${refusal.domain}/${refusal.key}`) {
    super(message)
    this.refusal = refusal
  }
}

/**
 * Whether a rejection is a refusal. Duck-typed rather than `instanceof`, so it also holds for an
 * error made by another copy of this package than the one the caller imported.
 */
export function isRefusalError(error: unknown): error is RefusalError {
  if (!(error instanceof Error) || error.name !== 'RefusalError') return false
  const refusal = (error as { refusal?: unknown }).refusal
  if (typeof refusal !== 'object' || refusal === null) return false
  const { domain, key } = refusal as { domain?: unknown; key?: unknown }
  return typeof domain === 'string' && typeof key === 'string'
}
