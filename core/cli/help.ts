import type { CoreText } from '../boot/catalogues.ts'
import { COMMANDS } from './arguments.ts'
import { OPERATIONS } from './operations.ts'

/** The longest synopsis the words are aligned after. */
const WIDEST = 48

/**
 * `--help`, built from the command table so a command cannot be left out of it: each synopsis
 * (syntax, so not translated) beside the words `cli.command.<name>` give it, the operations that
 * move and keep a bot in a group of their own.
 */
export function helpText(t: CoreText): string {
  const everyday = COMMANDS.filter((command) => OPERATIONS[command.name] === undefined)
  const operations = COMMANDS.filter((command) => OPERATIONS[command.name] !== undefined)
  const rows = [
    ...everyday.map((command) => [command.synopsis, t(`cli.command.${command.name}`)] as const),
    ['--help', t('cli.help.helpLine')] as const,
  ]
  const opRows = operations.map((command) => [command.synopsis, t(`cli.command.${command.name}`)] as const)
  const fits = [...rows, ...opRows].filter(([synopsis]) => synopsis.length <= WIDEST)
  const width = Math.max(...fits.map(([synopsis]) => synopsis.length))
  // A synopsis too long to align puts its words on the next line, under the others'.
  const line = ([synopsis, words]: readonly [string, string]) =>
    synopsis.length <= width
      ? `  ${synopsis.padEnd(width)}  ${words}`
      : `  ${synopsis}\n  ${' '.repeat(width)}  ${words}`
  return [
    t('cli.help.usage'),
    ...rows.map(line),
    t('cli.help.footer'),
    '',
    t('cli.help.operations'),
    ...opRows.map(line),
  ].join('\n')
}
