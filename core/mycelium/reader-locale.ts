import type { TranslatableRef } from '@mycelo/septum'
import type { Translator } from '../i18n/translator.ts'
import { currentActor } from './actor.ts'

/**
 * The language a mycelium call's words are read in: the reader of the command it serves; the
 * default locale for everyone else (the command line, an agent, a spore's own timer).
 */
export function readerLocale(defaultLocale: string): string {
  const actor = currentActor()
  return (actor?.kind === 'principal' ? actor.locale : undefined) ?? defaultLocale
}

/** A reason as the core keeps it: its text in the default locale, and its catalogue ref when it has one. */
export interface KeptReason {
  readonly text: string
  readonly ref?: TranslatableRef
}

/**
 * A reason worded for whoever reads it now. The core renders it, not the reading spore: a ref may
 * name a domain (a channel's own catalogue) the reader's spore may not read.
 */
export function reasonForReader(translator: Translator, reason: KeptReason): string {
  if (reason.ref === undefined) return reason.text
  const text = translator.render(reason.ref, readerLocale(translator.defaultLocale))
  // A key no catalogue holds renders as itself: the kept text says more.
  return text === reason.ref.key ? reason.text : text
}

export { faultRef } from '../germination/fault.ts'
