// Importing the configuration file: read and validated whole, compared with the bot, and the
// changes made one by one through the mycelium functions chat uses, as the operator. The caller
// wraps this in one transaction and rolls it back on a refusal (and on a dry run).
import { isMap, isSeq, LineCounter, parseDocument } from 'yaml'
import type { CoreRuntime } from '../../rhizomorph/runtime.ts'
import { type OperationRefusal, operationRefused } from '../refusal.ts'
import { firstBreach, IMPORT_BOUNDS } from './bounds.ts'
import { type Change, changesOf } from './changes.ts'
import { configDocumentSchema } from './document.ts'
import { readState } from './state.ts'

export type Imported = { readonly ok: true; readonly changes: readonly string[] } | OperationRefusal

/** Parses and validates `text`, then makes its changes in `runtime` (a copy, for a dry run too). */
export async function importConfiguration(runtime: CoreRuntime, text: string): Promise<Imported> {
  const bytes = Buffer.byteLength(text)
  if (bytes > IMPORT_BOUNDS.bytes) return importTooLarge(bytes)
  const lines = new LineCounter()
  // Repeated keys are refused by firstBreach, in one pass rather than the parser's quadratic one.
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: true, uniqueKeys: false })
  const [error] = document.errors
  if (error !== undefined)
    return operationRefused('importUnreadable', { reason: error.message.split('\n')[0] })
  const breach = firstBreach(document, lines)
  if (breach !== undefined) {
    const problem = runtime.translator.render(
      {
        domain: 'core',
        key: `operations.importBound.${breach.problem}`,
        params: { limit: breach.limit ?? 0 },
      },
      runtime.config.defaultLocale,
    )
    return operationRefused('importInvalid', { path: placeOf(breach.path, breach.line), problem })
  }
  let plain: unknown
  try {
    // Aliases are bounded above; this bounds what they expand to, the way yaml counts it.
    plain = document.toJS({ maxAliasCount: IMPORT_BOUNDS.aliases })
  } catch (fault) {
    return operationRefused('importUnreadable', {
      reason: fault instanceof Error ? fault.message : String(fault),
    })
  }
  const parsed = configDocumentSchema.safeParse(plain ?? {})
  if (!parsed.success) {
    const [issue] = parsed.error.issues
    const path = issue!.path.map(String).join('.') || '(top)'
    const at = lineOf(document, lines, issue!.path as (string | number)[])
    return operationRefused('importInvalid', { path: placeOf(path, at), problem: issue!.message })
  }
  const current = await readState(runtime, { secrets: false, data: parsed.data.data !== undefined })
  const changes = changesOf(runtime, current, parsed.data)
  for (const change of changes) {
    const done = await change.apply()
    if (done.ok) continue
    const reason = runtime.translator.render(done.refusal, runtime.config.defaultLocale)
    return operationRefused('importRefused', { change: describe(change, document, lines), reason })
  }
  return { ok: true, changes: changes.map((change) => change.text) }
}

/** A file over the size bound, refused before it is parsed (the companion, before it is read). */
export function importTooLarge(bytes: number): OperationRefusal {
  return operationRefused('importTooLarge', { bytes, limit: IMPORT_BOUNDS.bytes })
}

function placeOf(path: string, line: number | undefined): string {
  return line === undefined ? path : `${path} (line ${line})`
}

function describe(change: Change, document: ReturnType<typeof parseDocument>, lines: LineCounter): string {
  const line = lineOf(document, lines, change.path)
  return line === undefined ? change.text : `${change.text} (line ${line})`
}

/** The line the deepest existing node of `path` starts on, if the file has it at all. */
function lineOf(
  document: ReturnType<typeof parseDocument>,
  lines: LineCounter,
  path: readonly (string | number | PropertyKey)[],
): number | undefined {
  for (let depth = path.length; depth > 0; depth--) {
    const node = document.getIn(path.slice(0, depth) as unknown[], true) as
      | { range?: [number, number, number] }
      | undefined
    if (node?.range !== undefined) {
      // A key's value starts after the key: the key's own line is the one an operator looks for.
      const parent =
        depth > 1 ? document.getIn(path.slice(0, depth - 1) as unknown[], true) : document.contents
      const pair = isMap(parent)
        ? parent.items.find(
            (item) => String((item.key as { value?: unknown })?.value) === String(path[depth - 1]),
          )
        : undefined
      const start =
        (pair?.key as { range?: [number, number, number] } | undefined)?.range?.[0] ?? node.range[0]
      return lines.linePos(start).line
    }
    if (isSeq(node)) continue
  }
  return undefined
}
