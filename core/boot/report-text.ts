import type { ReportLine } from '../germination/index.ts'
import type { CoreText } from './catalogues.ts'

/** The germination report an operator reads: one aligned line per spore, the reason last. */
export function reportText(
  lines: readonly ReportLine[],
  options: { t: CoreText; folders: readonly string[] },
) {
  const { t } = options
  const title = t('report.title', { count: lines.length })
  if (lines.length === 0) return `${title}\n  ${t('report.empty', { folders: options.folders.join(', ') })}\n`
  const rows = lines.map((line) => [
    line.name,
    line.kind ?? t('report.kindUnknown'),
    t(`report.state.${line.state}`),
    line.reason ?? '',
  ])
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column]!.length)))
  const body = rows.map((row) =>
    `  ${row.map((cell, column) => (column < 3 ? cell.padEnd(widths[column]!) : cell)).join('  ')}`.trimEnd(),
  )
  return `${title}\n${body.join('\n')}\n`
}

/** The report for scripts: stable field names, the reason only where there is one. */
export function reportJson(lines: readonly ReportLine[]): string {
  return `${JSON.stringify({ ok: true, spores: lines }, null, 2)}\n`
}

/** A refusal for scripts. */
export function refusalJson(error: string): string {
  return `${JSON.stringify({ ok: false, error }, null, 2)}\n`
}
