import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { privateFolder } from './private-files.ts'

/** Who holds a database: enough for an operator to find the process. */
export interface LockHolder {
  readonly pid: number
  /** When it took the lock, as an ISO date. */
  readonly startedAt: string
  /** The kernel's start time of the process, where /proc tells it: tells a reused pid apart. */
  readonly processStart?: string
}

export type InstanceLock =
  | { readonly ok: true; release(): void }
  | { readonly ok: false; readonly holder: LockHolder }

/** The file beside the database that says a process is using it. */
export function lockPathOf(database: string): string {
  return `${database}.lock`
}

/**
 * One writer per database: takes `<database>.lock`, or answers who holds it. A lock left by a
 * process that is gone (kill -9, a crash, a reboot) is taken over rather than blocking the start.
 */
export function acquireInstanceLock(database: string): InstanceLock {
  if (database === ':memory:') return { ok: true, release: () => undefined }
  const path = lockPathOf(database)
  // Before the database exists: the lock guards its creation too.
  // The database's folder: made the operator's alone, like the files it will hold.
  privateFolder(dirname(path))
  const mine: LockHolder = {
    pid: process.pid,
    startedAt: new Date().toISOString(),
    ...optional(processStartOf(process.pid)),
  }
  const text = JSON.stringify(mine)
  // Twice at most: the second try follows removing a dead holder's lock.
  for (let attempt = 0; attempt < 2; attempt++) {
    if (create(path, text)) return { ok: true, release: () => releaseIfMine(path, text) }
    const holder = readHolder(path)
    if (holder !== undefined && isAlive(holder)) return { ok: false, holder }
    rmSync(path, { force: true })
  }
  const holder = readHolder(path)
  if (holder === undefined) throw new Error(`the lock ${path} keeps changing hands`)
  return { ok: false, holder }
}

/** Who holds the database now, if a live process does; for readers that go ahead anyway. */
export function lockHolder(database: string): LockHolder | undefined {
  if (database === ':memory:') return undefined
  const holder = readHolder(lockPathOf(database))
  return holder !== undefined && isAlive(holder) ? holder : undefined
}

/**
 * Creates the lock with its content in one step: written aside, then hard-linked into place,
 * which fails if the file exists, so nobody ever reads a half-written lock.
 */
function create(path: string, text: string): boolean {
  const aside = `${path}.${process.pid}.${Date.now()}`
  writeFileSync(aside, text)
  try {
    linkSync(aside, path)
    return true
  } catch (error) {
    if ((error as { code?: unknown }).code === 'EEXIST') return false
    throw error
  } finally {
    rmSync(aside, { force: true })
  }
}

function releaseIfMine(path: string, text: string): void {
  // A lock another process took over (after deciding ours was dead) is left alone.
  if (readText(path) === text) rmSync(path, { force: true })
}

function readHolder(path: string): LockHolder | undefined {
  const text = readText(path)
  if (text === undefined) return undefined
  try {
    const value = JSON.parse(text) as Partial<LockHolder>
    if (typeof value.pid !== 'number' || typeof value.startedAt !== 'string') return undefined
    return {
      pid: value.pid,
      startedAt: value.startedAt,
      ...optional(typeof value.processStart === 'string' ? value.processStart : undefined),
    }
  } catch {
    return undefined
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
}

/** A live process with the holder's pid, and, where /proc tells, the same process that wrote it. */
function isAlive(holder: LockHolder): boolean {
  try {
    process.kill(holder.pid, 0)
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    if ((error as { code?: unknown }).code !== 'EPERM') return false
  }
  if (holder.processStart === undefined) return true
  const now = processStartOf(holder.pid)
  return now === undefined || now === holder.processStart
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot); undefined off Linux. */
function processStartOf(pid: number): string | undefined {
  const stat = readText(`/proc/${pid}/stat`)
  if (stat === undefined) return undefined
  // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return fields[19]
}

function optional(processStart: string | undefined): { processStart?: string } {
  return processStart === undefined ? {} : { processStart }
}
