import type { Invocation, Outcome, TranslatableRef } from '@mycelo/septum'
import type { AdminContext } from './mycelium.ts'

/** The command word as the reader typed it, prefix and qualification included (`/admin.enable`). */
export function typed(invocation: Invocation): string {
  return invocation.message.text.trim().split(/\s+/)[0] || invocation.command
}

/** Another command of this spore, named the way the reader named this one. */
export function sibling(invocation: Invocation, command: string): string {
  const word = typed(invocation)
  const own = invocation.command
  return word.toLowerCase().endsWith(own) ? `${word.slice(0, -own.length)}${command}` : command
}

/** Every command with arguments has a `usage.<command>` sentence; it answers a bag missing one. */
export function usage(invocation: Invocation, ctx: AdminContext): Promise<void> {
  return say(ctx, ctx.t(`usage.${invocation.command}`, { command: typed(invocation) }))
}

export function say(ctx: AdminContext, text: string): Promise<void> {
  return ctx.reply({ text })
}

/**
 * A refusal is rendered through t(), which reads its own domain, `common` and `mycelium`. A ref
 * naming any other domain throws there; the reader then gets the bare key rather than no answer.
 */
export function refusalText(ctx: AdminContext, refusal: TranslatableRef): string {
  try {
    return ctx.t(refusal)
  } catch (error) {
    ctx.logger.warn('a refusal names a domain this spore may not read', {
      domain: refusal.domain,
      key: refusal.key,
      error: String(error),
    })
    return ctx.t('refused', { key: refusal.key })
  }
}

/** Answers the done sentence, or the refusal when the core refused. */
export function answer(ctx: AdminContext, outcome: Outcome, done: () => string): Promise<void> {
  return say(ctx, outcome.ok ? done() : refusalText(ctx, outcome.refusal))
}

/** A title line and one line per item, or the empty sentence when there is none. */
export function listing(title: string, lines: readonly string[], empty: string): string {
  return lines.length === 0 ? empty : [title, ...lines].join('\n')
}

/** An argument's words, split on spaces and commas: `plugins.* movies.add` or `console,discord`. */
export function words(text: string | undefined): string[] {
  return (text ?? '').split(/[\s,]+/).filter((word) => word !== '')
}

/** The principal a word designates: `me` is the reader. */
export function principalOf(word: string, ctx: AdminContext): string {
  return word.toLowerCase() === 'me' ? ctx.principal.id : word
}

/** A stored setting as a reader would type it back. */
export function shownValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value)
}

/** ICU `select` takes words, not booleans. */
export function yesNo(flag: boolean): 'yes' | 'no' {
  return flag ? 'yes' : 'no'
}

/** Reads an argument, or undefined when the reader left it out. */
export function arg(invocation: Invocation, name: string): string | undefined {
  const value = invocation.args[name]?.trim()
  return value === undefined || value === '' ? undefined : value
}
