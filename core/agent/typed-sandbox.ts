import { Effect } from 'effect'
import { failureOf, type SandboxFailure } from './failure.ts'
import type { PoolRun, RunningSandbox } from './pool/pool.ts'
import { Aborted } from './sandbox.ts'

/** A sandbox with a Promise interface: a started program's result, and when its backing work is over. */
export interface PromiseSandbox {
  start(run: PoolRun): RunningSandbox
}

/** A program for the Effect form: the run without its signal, which interruption provides. */
export type TypedRun = Omit<PoolRun, 'signal'>

/**
 * A Promise sandbox as an Effect: the program's JSON text, or its typed failure. Interrupted, it
 * stops the program and completes only once the sandbox's backing work (host calls included) has
 * settled, so nothing it started outlives the interruption unseen.
 */
export function fromTypedSandbox(
  sandbox: PromiseSandbox,
): (run: TypedRun) => Effect.Effect<string, SandboxFailure> {
  return (run) =>
    Effect.callback<string, SandboxFailure>((resume) => {
      const stop = new AbortController()
      const startedAt = Date.now()
      let running: RunningSandbox
      try {
        running = sandbox.start({ ...run, signal: stop.signal })
      } catch (error) {
        resume(Effect.fail(failureOf(error)))
        return
      }
      running.result.then(
        (text) => resume(Effect.succeed(text)),
        (error) =>
          resume(
            Effect.fail(
              // Not interrupted, so the sandbox stopped the program at its own deadline.
              error instanceof Aborted
                ? { kind: 'DeadlineExceeded', timeoutMs: run.deadlineAt - startedAt }
                : failureOf(error),
            ),
          ),
      )
      return Effect.promise(() => {
        stop.abort('caller')
        return running.settled
      })
    })
}
