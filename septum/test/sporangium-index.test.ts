import { describe, expect, it } from 'bun:test'
import { sporangiumIndexSchema, strainStatement } from '../src/index.ts'

const strain = {
  archive: 'archives/ping-1.0.0.tgz',
  size: 1024,
  sha256: 'a'.repeat(64),
  septum: '^1.0',
  published: '2026-11-30T12:00:00Z',
}
const index = (spores: unknown, extra: Record<string, unknown> = {}) => ({
  format: 1,
  name: 'mine',
  spores,
  ...extra,
})
const accepts = (value: unknown) => sporangiumIndexSchema.safeParse(value).success

describe('the sporangium index format', () => {
  it('accepts an index of spores and strains, signed or not', () => {
    expect(
      accepts(index({ ping: { kind: 'enzyme', description: 'Pong', strains: { '1.0.0': strain } } })),
    ).toBe(true)
    const key = `ed25519:${Buffer.alloc(32, 7).toString('base64')}`
    const signed = { ...strain, signature: Buffer.alloc(64, 1).toString('base64') }
    expect(
      accepts(index({ ping: { kind: 'enzyme', strains: { '1.0.0': signed } } }, { publisher: { key } })),
    ).toBe(true)
  })

  it('refuses another format, an absolute archive URL, a bad digest, a name or strain of the wrong shape', () => {
    const ok = { ping: { kind: 'enzyme', strains: { '1.0.0': strain } } }
    expect(accepts({ ...index(ok), format: 2 })).toBe(false)
    for (const archive of ['https://elsewhere.example/ping.tgz', '/abs/ping.tgz', 'file:ping.tgz']) {
      expect(accepts(index({ ping: { kind: 'enzyme', strains: { '1.0.0': { ...strain, archive } } } }))).toBe(
        false,
      )
    }
    expect(
      accepts(
        index({ ping: { kind: 'enzyme', strains: { '1.0.0': { ...strain, sha256: 'A'.repeat(64) } } } }),
      ),
    ).toBe(false)
    expect(accepts(index({ Ping: { kind: 'enzyme', strains: { '1.0.0': strain } } }))).toBe(false)
    expect(accepts(index({ ping: { kind: 'enzyme', strains: { latest: strain } } }))).toBe(false)
    expect(accepts(index({ ping: { kind: 'plugin', strains: { '1.0.0': strain } } }))).toBe(false)
    expect(accepts(index({ ping: { kind: 'enzyme', strains: { '1.0.0': { ...strain, extra: 1 } } } }))).toBe(
      false,
    )
  })

  it('signs a statement binding the spore, the strain and the digest', () => {
    const text = new TextDecoder().decode(strainStatement('ping', '1.0.0', 'b'.repeat(64)))
    expect(text).toBe(`mycelo-strain:1\nping\n1.0.0\n${'b'.repeat(64)}\n`)
    expect(strainStatement('pong', '1.0.0', 'b'.repeat(64))).not.toEqual(
      strainStatement('ping', '1.0.0', 'b'.repeat(64)),
    )
  })
})
