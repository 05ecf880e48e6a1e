import { describe, expect, it } from 'bun:test'
import { InFlight } from '../../supervision/in-flight.ts'

describe('calls in flight per spore', () => {
  it('refuses past the limit, tells once per time it is reached, and has room again after a leave', () => {
    const told: string[] = []
    const inFlight = new InFlight(2, (name, limit) => told.push(`${name}:${limit}`))
    expect(inFlight.enter('a')).toBe(true)
    expect(inFlight.enter('a')).toBe(true)
    expect(inFlight.enter('a')).toBe(false)
    expect(inFlight.hasRoom('a')).toBe(false)
    expect(inFlight.enter('b')).toBe(true)
    expect(told).toEqual(['a:2'])
    inFlight.leave('a')
    expect(inFlight.hasRoom('a')).toBe(true)
    expect(inFlight.enter('a')).toBe(true)
    expect(inFlight.enter('a')).toBe(false)
    expect(told).toEqual(['a:2', 'a:2'])
  })

  it('hasRoom counts nothing; holdUntil counts a pending call until it settles, either way', async () => {
    const inFlight = new InFlight(1, () => undefined)
    expect(inFlight.hasRoom('a')).toBe(true)
    expect(inFlight.hasRoom('a')).toBe(true)
    let fail: (error: Error) => void = () => undefined
    const pending = new Promise<void>((_, reject) => {
      fail = reject
    })
    inFlight.holdUntil('a', pending)
    expect(inFlight.hasRoom('a')).toBe(false)
    fail(new Error('gone'))
    await pending.catch(() => undefined)
    await Bun.sleep(0)
    expect(inFlight.hasRoom('a')).toBe(true)
  })

  it('a leave with nothing running changes nothing', () => {
    const inFlight = new InFlight(1, () => undefined)
    inFlight.leave('a')
    expect(inFlight.enter('a')).toBe(true)
    expect(inFlight.enter('a')).toBe(false)
  })
})
