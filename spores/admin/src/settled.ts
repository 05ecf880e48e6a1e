import { isRefusalError, type TranslatableRef } from '@mycelo/septum'
import { refusalText, say } from './answers.ts'
import type { AdminContext } from './mycelium.ts'

/**
 * For the scopes that reject on a refusal (restrictions.manage, locale.manage): the done sentence
 * once the call resolves, the refusal when it rejects with one. Any other rejection is a fault
 * and propagates, to be answered as one. `hint` may follow a refusal with what to type instead.
 */
export async function answerSettled<T>(
  ctx: AdminContext,
  call: Promise<T>,
  done: (value: T) => string,
  options: { readonly hint?: (refusal: TranslatableRef) => string | undefined } = {},
): Promise<void> {
  let value: T
  try {
    value = await call
  } catch (error) {
    if (!isRefusalError(error)) throw error
    const text = refusalText(ctx, error.refusal)
    const hint = options.hint?.(error.refusal)
    return say(ctx, hint === undefined ? text : `${text}\n${hint}`)
  }
  return say(ctx, done(value))
}
