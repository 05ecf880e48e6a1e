import type { GerminationWarning, ReportLine } from '../germination/index.ts'
import { reasonInLocale } from '../i18n/reason-words.ts'
import type { CoreText } from './catalogues.ts'

export interface ReportTextOptions {
  readonly t: CoreText
  readonly folders: readonly string[]
  /** The language the reasons are worded in (the report's own words come from `t`). */
  readonly locale?: string
  /** Shown after the spores, one line each. */
  readonly warnings?: readonly GerminationWarning[]
}

/** The germination report an operator reads: one aligned line per spore, the reason last, then any warnings. */
export function reportText(lines: readonly ReportLine[], options: ReportTextOptions): string {
  const { t } = options
  const warnings = (options.warnings ?? []).map((warning) => `  ${warningText(warning, t)}\n`).join('')
  return `${sporesText(lines, options)}${warnings}`
}

/** A warning in the reader's language. */
export function warningText(warning: GerminationWarning, t: CoreText): string {
  return t(`report.warning.${warning.kind}`, { ...warning })
}

function sporesText(lines: readonly ReportLine[], options: ReportTextOptions): string {
  const { t } = options
  const title = t('report.title', { count: lines.length })
  if (lines.length === 0) return `${title}\n  ${t('report.empty', { folders: options.folders.join(', ') })}\n`
  const rows = lines.map((line) => [
    line.name,
    t('report.kind', { kind: line.kind ?? 'unknown' }),
    t(`report.state.${line.state}`),
    line.isolation ? t(`report.isolation.${line.isolation}`) : '',
    line.reason === undefined ? '' : reasonInLocale(line.reason, options.locale ?? 'en'),
  ])
  // A report of spores none of which was placed (a check that starts nothing) has no such column.
  if (rows.every((row) => row[3] === '')) for (const row of rows) row.splice(3, 1)
  const last = rows[0]!.length - 1
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)))
  const body = rows.map((row) =>
    `  ${row.map((cell, column) => (column < last ? cell.padEnd(widths[column]!) : cell)).join('  ')}`.trimEnd(),
  )
  return `${title}\n${body.join('\n')}\n`
}

/** The report for scripts: stable field names, the reason only where there is one, warnings only when there are some. */
export function reportJson(
  lines: readonly ReportLine[],
  warnings: readonly GerminationWarning[] = [],
): string {
  const report = warnings.length === 0 ? { ok: true, spores: lines } : { ok: true, spores: lines, warnings }
  return `${JSON.stringify(report, null, 2)}\n`
}

/** A refusal for scripts. */
export function refusalJson(error: string): string {
  return `${JSON.stringify({ ok: false, error }, null, 2)}\n`
}
