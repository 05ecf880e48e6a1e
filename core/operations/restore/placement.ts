// Puts staged files in place with renames only, undoing the ones done if a later one fails, so a
// restore lands whole or leaves every path as it was.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { dirname } from 'node:path'

export interface Move {
  readonly from: string
  readonly to: string
}

/** A path a restore would overwrite: anything there but nothing, or an empty folder. */
export function occupied(path: string): boolean {
  if (!existsSync(path)) return false
  return !statSync(path).isDirectory() || readdirSync(path).length > 0
}

/**
 * Renames each `from` onto its `to`. What was at a `to` (a file restored over, an empty folder) is
 * kept aside until every move is done; any failure moves everything back and rethrows.
 */
export function placeAll(moves: readonly Move[]): void {
  const done: { move: Move; aside: string | undefined }[] = []
  try {
    for (const move of moves) {
      mkdirSync(dirname(move.to), { recursive: true })
      let aside: string | undefined
      if (existsSync(move.to)) {
        aside = `${move.to}.before-restore-${process.pid}`
        renameSync(move.to, aside)
      }
      done.push({ move, aside })
      renameSync(move.from, move.to)
    }
  } catch (error) {
    for (const { move, aside } of done.reverse()) {
      if (existsSync(move.to) && !existsSync(move.from)) renameSync(move.to, move.from)
      if (aside !== undefined) renameSync(aside, move.to)
    }
    throw error
  }
  for (const { aside } of done) if (aside !== undefined) rmSync(aside, { recursive: true, force: true })
}
