import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import type { Supervised } from './supervised.ts'

/**
 * The supervised states of a running bot, kept in a file beside its database, so the command-line
 * companion (another process) reads the same states the bot's own surfaces show.
 */
export function snapshotPathOf(database: string): string | undefined {
  return database === ':memory:' ? undefined : `${database}.supervised.json`
}

/** Written whole aside, then renamed into place: a reader never sees half a file. */
export function writeSnapshot(path: string, states: ReadonlyMap<string, Supervised>): void {
  const text = JSON.stringify({ pid: process.pid, states: Object.fromEntries(states) })
  const aside = `${path}.${process.pid}.tmp`
  try {
    writeFileSync(aside, text)
    renameSync(aside, path)
  } catch {
    // A read-only folder costs the command line its view of the states, never the bot its run.
    rmSync(aside, { force: true })
  }
}

/** The states the bot running as `pid` last wrote; undefined when none or another process wrote them. */
export function readSnapshot(path: string, pid: number): ReadonlyMap<string, Supervised> | undefined {
  let parsed: { pid?: unknown; states?: Record<string, Record<string, unknown>> }
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'))
  } catch {
    return undefined
  }
  if (parsed.pid !== pid || typeof parsed.states !== 'object' || parsed.states === null) return undefined
  const states = new Map<string, Supervised>()
  for (const [name, raw] of Object.entries(parsed.states)) {
    const { state, attempt, nextAt, lastChange, lastError } = raw
    if (typeof state !== 'string') continue
    states.set(name, {
      state: state as Supervised['state'],
      lastChange: new Date(String(lastChange)),
      ...(typeof attempt === 'number' ? { attempt } : {}),
      ...(typeof nextAt === 'string' ? { nextAt: new Date(nextAt) } : {}),
      ...(typeof lastError === 'string' ? { lastError } : {}),
    })
  }
  return states
}
