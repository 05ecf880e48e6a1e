import { describe, expect, it } from 'bun:test'
import type { HandleMark } from '../../hosts/call-kinds.ts'
import { HANDLE, MARK } from '../../hosts/marks.ts'
import { marshal, type Wire } from '../../hosts/marshal.ts'
import { markBound, markLayered, markShared } from '../../hosts/shared-values.ts'
import { Shares } from '../../hosts/shares.ts'
import { unmarshal } from '../../hosts/unmarshal.ts'

// How values cross between the core and a host, without the worker: marshalled on one side, carried
// as the bridge carries them (JSON text when the wire says so, else a structured clone), unmarshalled
// on the other, with handles called straight through.

type AnyFn = (...args: unknown[]) => unknown

function link() {
  const exported = new Map<number, { fn: AnyFn; owner: unknown }>()
  let next = 1
  const table = {
    export(fn: AnyFn, owner: unknown) {
      exported.set(next, { fn, owner })
      return next++
    },
  }
  const shares = new Shares(() => undefined)
  const copies = new Map<number, unknown>()
  const how = {
    proxy: (mark: HandleMark) => {
      const { fn, owner } = exported.get(mark[HANDLE])!
      return (...args: unknown[]) => fn.apply(owner, args)
    },
    shared: copies,
  }
  /** Sends `value` across; `json` tells which way it went. */
  const cross = (value: unknown) => {
    const wire: Wire = { plain: true }
    const marshalled = marshal(value, table, { share: shares, wire })
    shares.posted()
    const carried = wire.plain
      ? JSON.parse(JSON.stringify({ value: marshalled })).value
      : structuredClone(marshalled)
    return { value: unmarshal(carried, how), json: wire.plain }
  }
  return { cross, copies }
}

describe('a value crossing to a host', () => {
  it('crosses as JSON text when JSON keeps it exactly, a Date included', () => {
    const { cross } = link()
    const value = {
      text: 'héllo \u0000 wörld 🍄',
      n: 3.5,
      ok: true,
      none: null,
      when: new Date('2026-01-02T03:04:05.006Z'),
      list: [1, 'two', { three: [3] }],
    }
    const crossed = cross(value)
    expect(crossed.json).toBe(true)
    expect(crossed.value).toEqual(value)
    expect((crossed.value as typeof value).when).toBeInstanceOf(Date)
  })

  it('crosses as a clone whatever JSON would change, and arrives unchanged', () => {
    const { cross } = link()
    const values: unknown[] = [
      { n: Number.NaN },
      { n: Number.POSITIVE_INFINITY },
      { n: -0 },
      { big: 10n },
      { list: [1, undefined, 3] },
      // biome-ignore lint/suspicious/noSparseArray: a hole is what is checked
      { holes: [1, , 3] },
      { map: new Map([['a', 1]]) },
      { set: new Set([1, 2]) },
      { bytes: new Uint8Array([1, 2, 3]) },
      { pattern: /a+b/gi },
    ]
    for (const value of values) {
      const crossed = cross(value)
      expect(crossed.json).toBe(false)
      expect(crossed.value).toStrictEqual(value)
    }
    const invalid = cross({ when: new Date(Number.NaN) })
    expect(invalid.json).toBe(false)
    const when = (invalid.value as { when: Date }).when
    expect(when).toBeInstanceOf(Date)
    expect(when.getTime()).toBeNaN()
  })

  it('keeps a data key that looks like a mark as data, whichever way it crosses', () => {
    const { cross } = link()
    const value = { [`${MARK}fn`]: 1, [`${MARK}${MARK}x`]: { [`${MARK}shared`]: 2 }, [`${MARK}err`]: 'no' }
    expect(cross(value)).toEqual({ value, json: true })
    expect(cross({ ...value, map: new Map() })).toEqual({ value: { ...value, map: new Map() }, json: false })
  })

  it("keeps an error's name, message and code, and its data by clone", () => {
    const { cross } = link()
    const error = Object.assign(new Error('refused'), { name: 'PurposeError', code: 'E_PURPOSE' })
    const plain = cross({ error })
    expect(plain.json).toBe(true)
    expect(plain.value).toEqual({
      error: expect.objectContaining({ name: 'PurposeError', code: 'E_PURPOSE' }),
    })
    const withData = cross({ error: Object.assign(new Error('x'), { ref: new Map([['id', 1]]) }) })
    expect(withData.json).toBe(false)
    expect((withData.value as { error: { ref: unknown } }).error.ref).toEqual(new Map([['id', 1]]))
  })

  it('sends a shared base once, then its id with only the members a context adds', () => {
    const { cross, copies } = link()
    const said: unknown[] = []
    const start = markShared({
      config: { greeting: 'hi' },
      logger: { info: (line: string) => said.push(line), child: () => undefined },
    })
    const send = (target: { to: string }, text: string) => said.push(`${target.to}: ${text}`)
    const context = (to: string) =>
      markLayered(
        {
          ...start,
          locale: to,
          reply: markBound((text: string) => send({ to }, text), { fn: send, args: [{ to }] }),
        },
        start,
      )
    const first = marshal(context('en'), { export: () => 1 }, { share: new Shares(() => undefined) })
    expect(JSON.stringify(first)).toContain('greeting')

    const one = cross(context('en')).value as ReturnType<typeof context>
    const two = cross(context('fr')).value as ReturnType<typeof context>
    expect(copies.size).toBe(1)
    expect(one.config).toEqual({ greeting: 'hi' })
    expect(two.config).toBe(one.config)
    expect([one.locale, two.locale]).toEqual(['en', 'fr'])
    one.reply('hello')
    two.reply('salut')
    two.logger.info('logged')
    expect(said).toEqual(['en: hello', 'fr: salut', 'logged'])
  })

  it('rebuilds a shared value met first in a base that has never crossed, then in the members added', () => {
    const { cross } = link()
    const capabilities = markShared({ list: ['reactions'] })
    const start = markShared({ capabilities })
    const context = markLayered({ ...start, also: capabilities }, start)
    const crossed = cross(context).value as typeof context
    expect(crossed).toEqual({ capabilities: { list: ['reactions'] }, also: { list: ['reactions'] } })
    expect(crossed.also).toBe(crossed.capabilities)
  })
})
