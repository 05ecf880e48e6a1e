// ReplayGuard: a signed delivery is taken once; the same delivery id, or the same signed body,
// within the window is already received; a signed timestamp outside the window is refused.
import { describe, expect, it } from 'bun:test'
import { createHmac } from 'node:crypto'
import { DELIVERY_WINDOW_MS, ReplayGuard } from '../src/index.ts'

const secret = 'It is a secret to everybody'
const sign = (content: string) => createHmac('sha256', secret).update(content).digest('hex')

function guarded() {
  const clock = { now: 1_700_000_000_000 }
  return { clock, guard: new ReplayGuard({ now: () => clock.now }) }
}

describe('a delivery without a timestamp (GitHub, Gitea)', () => {
  const body = '{"ref":"refs/heads/main"}'
  const header = `sha256=${sign(body)}`

  it('takes it once; the same delivery id again, even with another signed body, is already received', () => {
    const { guard } = guarded()
    expect(guard.verify({ secret, body, header, scheme: 'github', deliveryId: 'd-1' })).toEqual({ ok: true })
    expect(guard.verify({ secret, body, header, scheme: 'github', deliveryId: 'd-1' })).toEqual({
      ok: false,
      refusal: 'alreadyReceived',
    })
    const other = '{"ref":"refs/heads/dev"}'
    expect(
      guard.verify({
        secret,
        body: other,
        header: `sha256=${sign(other)}`,
        scheme: 'github',
        deliveryId: 'd-1',
      }),
    ).toEqual({ ok: false, refusal: 'alreadyReceived' })
  })

  it('knows a captured body sent again under a new id, or none, by its signature', () => {
    const { guard } = guarded()
    expect(guard.verify({ secret, body, header, scheme: 'github', deliveryId: 'd-1' }).ok).toBe(true)
    expect(guard.verify({ secret, body, header, scheme: 'github', deliveryId: 'd-2' })).toEqual({
      ok: false,
      refusal: 'alreadyReceived',
    })
    expect(guard.verify({ secret, body, header, scheme: 'github' }).ok).toBe(false)
  })

  it('forgets a delivery once the window has passed', () => {
    const { clock, guard } = guarded()
    expect(guard.verify({ secret, body, header, scheme: 'github', deliveryId: 'd-1' }).ok).toBe(true)
    clock.now += DELIVERY_WINDOW_MS + 1
    expect(guard.verify({ secret, body, header, scheme: 'github', deliveryId: 'd-1' }).ok).toBe(true)
  })

  it('remembers nothing for a delivery whose signature fails, so a forger cannot spend a real id', () => {
    const { guard } = guarded()
    expect(
      guard.verify({ secret, body, header: `sha256=${'0'.repeat(64)}`, scheme: 'github', deliveryId: 'd-1' }),
    ).toEqual({
      ok: false,
      refusal: 'signature',
    })
    expect(guard.verify({ secret, body, header, scheme: 'github', deliveryId: 'd-1' }).ok).toBe(true)
  })
})

describe('a delivery with a signed timestamp', () => {
  const body = '{"text":"deployed"}'
  const at = (clock: { now: number }, offsetMs = 0) => String(Math.floor((clock.now + offsetMs) / 1000))

  it('is signed over <timestamp>.<body>: a signature of the body alone, or another time, does not hold', () => {
    const { clock, guard } = guarded()
    const timestamp = at(clock)
    expect(guard.verify({ secret, body, header: sign(body), scheme: 'generic', timestamp })).toEqual({
      ok: false,
      refusal: 'signature',
    })
    const later = at(clock, 1000)
    expect(
      guard.verify({
        secret,
        body,
        header: sign(`${timestamp}.${body}`),
        scheme: 'generic',
        timestamp: later,
      }),
    ).toEqual({
      ok: false,
      refusal: 'signature',
    })
    expect(
      guard.verify({ secret, body, header: sign(`${timestamp}.${body}`), scheme: 'generic', timestamp }).ok,
    ).toBe(true)
  })

  it('is already received when sent again within the window', () => {
    const { clock, guard } = guarded()
    const timestamp = at(clock)
    const delivery = {
      secret,
      body,
      header: sign(`${timestamp}.${body}`),
      scheme: 'generic' as const,
      timestamp,
    }
    expect(guard.verify(delivery).ok).toBe(true)
    clock.now += 60_000
    expect(guard.verify(delivery)).toEqual({ ok: false, refusal: 'alreadyReceived' })
  })

  it('is refused outside the window, past or future, even on a guard that never saw it', () => {
    const { clock, guard } = guarded()
    for (const offset of [-(DELIVERY_WINDOW_MS + 2000), DELIVERY_WINDOW_MS + 2000]) {
      const timestamp = at(clock, offset)
      expect(
        guard.verify({ secret, body, header: sign(`${timestamp}.${body}`), scheme: 'generic', timestamp }),
      ).toEqual({
        ok: false,
        refusal: 'outsideWindow',
      })
    }
    expect(
      guard.verify({ secret, body, header: sign(`x.${body}`), scheme: 'generic', timestamp: 'x' }),
    ).toEqual({
      ok: false,
      refusal: 'signature',
    })
  })
})
