// How every database command of the companion answers: worded in the configured locale, from
// the `core` catalogue for what it did and from the refusal's own ref for what it would not do.
import type { Outcome, TranslatableRef } from '@mycelo/septum'
import type { CliRuntime } from './runtime.ts'

/** What a command printed and how it ended: 0 done, 1 refused. */
export interface Answer {
  readonly code: 0 | 1
  readonly text: string
}

export type Run = (cli: CliRuntime, args: readonly string[]) => Promise<Answer>

export function say(cli: CliRuntime, key: string, params: Record<string, unknown> = {}): string {
  return cli.runtime.translator.render({ domain: 'core', key, params }, cli.config.defaultLocale)
}

export function ok(cli: CliRuntime, key: string, params: Record<string, unknown> = {}): Answer {
  return { code: 0, text: say(cli, key, params) }
}

export function refusal(cli: CliRuntime, ref: TranslatableRef): Answer {
  return { code: 1, text: cli.runtime.translator.render(ref, cli.config.defaultLocale) }
}

/** The done sentence, or the refusal the mycelium function answered. */
export function outcome(
  cli: CliRuntime,
  result: Outcome,
  key: string,
  params: Record<string, unknown>,
): Answer {
  return result.ok ? ok(cli, key, params) : refusal(cli, result.refusal)
}
