import type { Logger } from '@mycelo/septum'

/** Thrown into a spore that tries to end the process: only the core's own shut-down may. */
export class ExitRefused extends Error {
  override readonly name = 'ExitRefused'
}

export interface ProcessEnd {
  /** Ends the process: the core's shut-down and the entry point's own exit codes, nobody else. */
  exit(code: number): never
}

let guarded: ProcessEnd | undefined

/**
 * Takes process.exit, process.reallyExit, process.abort and a signal sent to the process itself
 * away from everything but the core. A spore that calls one gets ExitRefused thrown at it, which
 * faults that spore alone; the attempt is logged with the calling file. Idempotent.
 */
export function guardProcessEnd(logger: Logger): ProcessEnd {
  if (guarded) return guarded
  const real = {
    exit: process.exit.bind(process),
    reallyExit: (process as unknown as { reallyExit: (code?: number) => never }).reallyExit.bind(process),
    abort: process.abort.bind(process),
    kill: process.kill.bind(process),
  }
  // The runtime's own exit goes through reallyExit: once the core ends the process, all pass.
  let ending = false
  const refuse = (what: string) => {
    const error = new ExitRefused(`${what} is refused: only the core ends the bot`)
    logger.error('a spore tried to end the process; refused', { call: what, from: callerOf(error) })
    return error
  }
  const self = (pid: number) => pid === process.pid || pid === 0
  Object.assign(process, {
    exit: (code?: number) => {
      if (ending) return real.exit(code)
      throw refuse(`process.exit(${code ?? ''})`)
    },
    reallyExit: (code?: number) => {
      if (ending) return real.reallyExit(code)
      throw refuse(`process.reallyExit(${code ?? ''})`)
    },
    abort: () => {
      if (ending) return real.abort()
      throw refuse('process.abort()')
    },
    kill: (pid: number, signal?: string | number) => {
      if (self(pid) && !ending) throw refuse(`process.kill(${pid}, ${String(signal ?? 'SIGTERM')})`)
      return real.kill(pid, signal)
    },
  })
  guarded = {
    exit(code) {
      ending = true
      return real.exit(code)
    },
  }
  return guarded
}

/** The first stack frame outside this file: the code that asked, as a path an operator can follow. */
function callerOf(error: Error): string | undefined {
  const frames = (error.stack ?? '').split('\n').slice(1)
  const outside = frames.find((frame) => !frame.includes('exit-guard.ts') && frame.includes('/'))
  return outside?.trim().replace(/^at\s+/, '')
}
