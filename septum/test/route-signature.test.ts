import { describe, expect, it } from 'bun:test'
import { createHmac } from 'node:crypto'
import { verifySignature } from '../src/index.ts'

const secret = 'It is a secret to everybody'
const body = '{"action":"opened","number":7}'
const hex = createHmac('sha256', secret).update(body).digest('hex')

describe('verifySignature', () => {
  it('accepts GitHub, Gitea and generic headers carrying the right digest', () => {
    expect(verifySignature({ secret, body, header: `sha256=${hex}`, scheme: 'github' })).toBe(true)
    expect(verifySignature({ secret, body, header: hex, scheme: 'gitea' })).toBe(true)
    expect(verifySignature({ secret, body, header: `sha256=${hex}`, scheme: 'generic' })).toBe(true)
    expect(verifySignature({ secret, body, header: hex.toUpperCase(), scheme: 'generic' })).toBe(true)
  })

  it('accepts bytes as well as text', () => {
    const bytes = new TextEncoder().encode(body)
    expect(verifySignature({ secret, body: bytes, header: hex, scheme: 'gitea' })).toBe(true)
    expect(verifySignature({ secret, body: bytes.buffer, header: hex, scheme: 'gitea' })).toBe(true)
  })

  it("matches the test values of GitHub's documentation", () => {
    // The secret, payload and signature GitHub's "Validating webhook deliveries" page lists.
    const documented = "It's a Secret to Everybody"
    const digest = '757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17'
    expect(
      verifySignature({
        secret: documented,
        body: 'Hello, World!',
        header: `sha256=${digest}`,
        scheme: 'github',
      }),
    ).toBe(true)
  })

  it('refuses a digest made with another secret', () => {
    const other = createHmac('sha256', 'another').update(body).digest('hex')
    expect(verifySignature({ secret, body, header: `sha256=${other}`, scheme: 'github' })).toBe(false)
  })

  it('refuses a tampered body', () => {
    const tampered = body.replace('7', '8')
    expect(verifySignature({ secret, body: tampered, header: `sha256=${hex}`, scheme: 'github' })).toBe(false)
  })

  it('refuses a missing header', () => {
    expect(verifySignature({ secret, body, header: undefined, scheme: 'github' })).toBe(false)
    expect(verifySignature({ secret, body, header: null, scheme: 'gitea' })).toBe(false)
    expect(verifySignature({ secret, body, header: '', scheme: 'generic' })).toBe(false)
  })

  it('refuses a digest of the wrong length without throwing', () => {
    expect(verifySignature({ secret, body, header: `sha256=${hex.slice(2)}`, scheme: 'github' })).toBe(false)
    expect(verifySignature({ secret, body, header: `${hex}00`, scheme: 'gitea' })).toBe(false)
    expect(verifySignature({ secret, body, header: 'sha256=zz', scheme: 'generic' })).toBe(false)
  })

  it('refuses the other scheme form', () => {
    expect(verifySignature({ secret, body, header: hex, scheme: 'github' })).toBe(false)
    expect(verifySignature({ secret, body, header: `sha256=${hex}`, scheme: 'gitea' })).toBe(false)
  })

  it('refuses everything when the secret is empty', () => {
    const empty = createHmac('sha256', '').update(body).digest('hex')
    expect(verifySignature({ secret: '', body, header: empty, scheme: 'gitea' })).toBe(false)
  })
})
