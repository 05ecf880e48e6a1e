import { reasonInWords } from '../i18n/reason-words.ts'
import type { Translator } from '../i18n/translator.ts'
import { currentActor } from './actor.ts'

/**
 * The language a mycelium call's words are read in: the reader of the command it serves, or the
 * person an agent acts for; the default locale for everyone else (the command line, a spore's own
 * timer).
 */
export function readerLocale(defaultLocale: string): string {
  const actor = currentActor()
  return (actor?.kind === 'principal' || actor?.kind === 'agent' ? actor.locale : undefined) ?? defaultLocale
}

/**
 * A kept reason worded for whoever reads it now: one the core wrote (`reason.*`) in the reader's
 * language, a channel's fault in its own catalogue's words. The core renders it, not the reading
 * spore: a ref may name a domain (a channel's own catalogue) the reader's spore may not read.
 */
export function reasonForReader(translator: Translator, text: string): string {
  return reasonInWords(translator, text, readerLocale(translator.defaultLocale))
}

export { faultRef } from '../germination/fault.ts'
