// fromTypedSandbox: an Effect host over the Promise sandbox pool.
import { describe, expect, it } from 'bun:test'
import { Effect, Exit, Fiber } from 'effect'
import { Forage } from '../../agent/forage.ts'
import { fromTypedSandbox, type TypedRun } from '../../agent/index.ts'
import { SandboxPool } from '../../agent/pool/pool.ts'
import { DEFAULT_LIMITS } from '../../agent/sandbox.ts'
import { gate } from './notes.ts'

const pool = new SandboxPool({ size: 2 })
const execute = fromTypedSandbox(pool)

function run(program: string, call: TypedRun['call'] = async () => ({ ok: true, value: 1 })): TypedRun {
  return {
    program,
    paths: ['held.wait'],
    catalog: new Forage([]),
    call,
    limits: DEFAULT_LIMITS,
    deadlineAt: Date.now() + 10_000,
    graceMs: 50,
  }
}

describe('fromTypedSandbox', () => {
  it('answers the program’s result, and its failure typed', async () => {
    expect(await Effect.runPromise(execute(run('return 6 * 7')))).toBe('42')
    const exit = await Effect.runPromiseExit(execute(run('return (')))
    expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toContain('SyntaxError')
  })

  it('waits for the Promise to settle when interrupted (“which waits for that Promise to settle when interrupted”)', async () => {
    const held = gate<{ ok: true; value: number }>()
    let called = false
    const fiber = Effect.runFork(
      execute(
        run('return await env.held.wait({})', () => {
          called = true
          return held.promise
        }),
      ),
    )
    while (!called) await Bun.sleep(5)
    let interrupted = false
    const interrupting = Effect.runPromise(Fiber.interrupt(fiber)).then(() => {
      interrupted = true
    })
    // The program is stopped, but the host call it started is still running: no completion yet.
    await Bun.sleep(150)
    expect(interrupted).toBe(false)
    held.open({ ok: true, value: 1 })
    await interrupting
    expect(interrupted).toBe(true)
  })
})
