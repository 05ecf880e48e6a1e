import { refusalText, say, typed } from './answers.ts'
import { type Handlers, myceliumOf } from './mycelium.ts'

/** /web: a one-time code for the admin page, for the reader only, so never in a group. */
export const webHandlers: Handlers = {
  async web(invocation, ctx) {
    if (invocation.message.group !== undefined) {
      return say(ctx, ctx.t('web.dmOnly', { command: typed(invocation) }))
    }
    const issued = await myceliumOf(ctx).loginCode()
    if (!issued.ok) return say(ctx, refusalText(ctx, issued.refusal))
    const { code, url, expiresAt } = issued.value
    // Rounded down: the code may be a moment older by the time it is read.
    const minutes = Math.max(1, Math.floor((expiresAt - Date.now()) / 60_000))
    return say(ctx, ctx.t('web.code', { code, url, minutes }))
  },
}
