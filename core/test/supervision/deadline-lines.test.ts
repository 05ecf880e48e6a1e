import { describe, expect, it } from 'bun:test'
import { DeadlineExceeded, raceDeadline } from '../../supervision/deadline.ts'

/** A call that settles only when told to. */
function pendingCall<T>() {
  let settle!: (value: T) => void
  let fail!: (error: unknown) => void
  const promise = new Promise<T>((resolve, reject) => {
    settle = resolve
    fail = reject
  })
  return { promise, settle, fail }
}

describe('deadlines that share one clock per length', () => {
  it('expires every call left pending, oldest first, each once, while the ones that settled answer', async () => {
    const expired: string[] = []
    const calls = ['a', 'b', 'c', 'd'].map((name) => ({ name, call: pendingCall<string>() }))
    const raced = calls.map(({ name, call }) =>
      raceDeadline(call.promise, {
        step: `${name}()`,
        ms: 40,
        onExpired: (expiry) => expired.push(expiry.step),
      }).then(
        (value) => `${name} answered ${value}`,
        (error: unknown) => `${name} ${error instanceof DeadlineExceeded ? 'expired' : 'failed'}`,
      ),
    )
    // The oldest settles in time: the one after it must still expire on its own deadline.
    calls[0]!.call.settle('yes')
    calls[2]!.call.fail(new Error('no'))
    expect(await Promise.all(raced)).toEqual(['a answered yes', 'b expired', 'c failed', 'd expired'])
    expect(expired).toEqual(['b()', 'd()'])
  })

  it('keeps each length to its own deadline: a short one expires while a long one started first waits', async () => {
    const long = pendingCall<string>()
    const short = pendingCall<string>()
    const longRace = raceDeadline(long.promise, { step: 'long()', ms: 5_000 })
    const shortRace = raceDeadline(short.promise, { step: 'short()', ms: 30 })
    await expect(shortRace).rejects.toThrow('short() did not finish within 30 ms')
    long.settle('in time')
    expect(await longRace).toBe('in time')
  })

  it('tells a late settlement to onLate, and onSettled of every settlement, in time or late', async () => {
    const settled: string[] = []
    const late: PromiseSettledResult<unknown>[] = []
    const slow = pendingCall<string>()
    const quick = pendingCall<string>()
    const slowRace = raceDeadline(slow.promise, {
      step: 'slow()',
      ms: 20,
      onLate: (outcome) => late.push(outcome),
      onSettled: () => settled.push('slow'),
    })
    const quickRace = raceDeadline(quick.promise, {
      step: 'quick()',
      ms: 20,
      onSettled: () => settled.push('quick'),
    })
    quick.settle('done')
    expect(await quickRace).toBe('done')
    await expect(slowRace).rejects.toBeInstanceOf(DeadlineExceeded)
    expect(settled).toEqual(['quick'])
    slow.settle('too late')
    await slow.promise
    await Promise.resolve()
    expect(settled).toEqual(['quick', 'slow'])
    expect(late).toEqual([{ status: 'fulfilled', value: 'too late' }])
  })

  it('starts a new round of calls after a line emptied, and still expires them', async () => {
    for (let round = 0; round < 3; round++) {
      const quick = pendingCall<number>()
      const race = raceDeadline(quick.promise, { step: 'quick()', ms: 25 })
      quick.settle(round)
      expect(await race).toBe(round)
    }
    const stuck = raceDeadline(new Promise(() => {}), { step: 'stuck()', ms: 25 })
    await expect(stuck).rejects.toThrow('stuck() did not finish within 25 ms')
  })
})

describe('what a deadline holds the process open for', () => {
  const deadlineModule = new URL('../../supervision/deadline.ts', import.meta.url).pathname
  const run = async (body: string) => {
    const child = Bun.spawn(['bun', '-e', `import { raceDeadline } from '${deadlineModule}'\n${body}`], {
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const [out, code] = await Promise.all([new Response(child.stdout).text(), child.exited])
    return { out: out.trim(), code }
  }

  it('keeps the process alive until a pending call expires, as its own timer would have', async () => {
    const { out, code } = await run(
      "raceDeadline(new Promise(() => {}), { step: 'hang()', ms: 50 }).catch((e) => console.log(e.message))",
    )
    expect({ out, code }).toEqual({ out: 'hang() did not finish within 50 ms', code: 0 })
  })

  it('lets the process exit once every call settled, however long their deadlines', async () => {
    // With a minute's deadline still armed, the child would outlive the test's own time limit.
    const { out, code } = await run(
      "console.log(await raceDeadline(Promise.resolve('answered'), { step: 'quick()', ms: 60_000 }))",
    )
    expect({ out, code }).toEqual({ out: 'answered', code: 0 })
  })
})
