import { createHmac } from 'node:crypto'
import { type SignatureCheck, verifySignature } from './signature.ts'

/** How long a delivery is remembered, and how far a signed timestamp may be from now. */
export const DELIVERY_WINDOW_MS = 5 * 60_000
/** Deliveries remembered at most: past it the oldest are forgotten rather than memory growing. */
const REMEMBERED = 10_000

export interface DeliveryCheck extends SignatureCheck {
  /**
   * The sender's own id for this delivery (GitHub `X-GitHub-Delivery`, Gitea `X-Gitea-Delivery`),
   * when it sends one: a redelivery carries the same id.
   */
  readonly deliveryId?: string | null
  /**
   * The time the sender signed, in seconds since the epoch, when it signs one: the signature is then
   * the HMAC of `<timestamp>.<body>`, so the time cannot be changed without the secret.
   */
  readonly timestamp?: string | null
}

/**
 * Why a delivery is not taken: its signature does not hold (or its timestamp is not a number), its
 * signed time is outside the window, or it was already received within the window.
 */
export type DeliveryRefusal = 'signature' | 'outsideWindow' | 'alreadyReceived'

export type DeliveryVerdict =
  | { readonly ok: true }
  | { readonly ok: false; readonly refusal: DeliveryRefusal }

export interface ReplayGuardOptions {
  /** Default DELIVERY_WINDOW_MS. */
  readonly windowMs?: number
  /** The clock, in milliseconds; tests move it. */
  readonly now?: () => number
}

/**
 * A signature proves who sent a body, not that it is sent for the first time: anyone who captured
 * one delivery can send it again. This checks the signature and then remembers each delivery (by
 * the sender's id and by its signature) for the window, so a replay within it is answered as
 * already received; a signed timestamp outside the window is refused, so an older capture is too.
 * One guard per route, kept for the spore's life; memory only, so a restart forgets the window.
 */
export class ReplayGuard {
  readonly #seen = new Map<string, number>()
  readonly #windowMs: number
  readonly #now: () => number

  constructor(options: ReplayGuardOptions = {}) {
    this.#windowMs = options.windowMs ?? DELIVERY_WINDOW_MS
    this.#now = options.now ?? Date.now
  }

  /** Verifies `check` and, when it holds and is new, remembers it: a second call for it is refused. */
  verify(check: DeliveryCheck): DeliveryVerdict {
    const now = this.#now()
    const timestamp = check.timestamp ?? undefined
    if (timestamp !== undefined) {
      if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, refusal: 'signature' }
      if (Math.abs(now - Number(timestamp) * 1000) > this.#windowMs)
        return { ok: false, refusal: 'outsideWindow' }
    }
    const signed = timestamp === undefined ? check.body : withTimestamp(timestamp, check.body)
    if (!verifySignature({ ...check, body: signed })) return { ok: false, refusal: 'signature' }
    this.#forgetBefore(now)
    const keys = [`signature:${digestOf(check.secret, signed)}`]
    if (check.deliveryId) keys.push(`id:${check.deliveryId}`)
    if (keys.some((key) => this.#seen.has(key))) return { ok: false, refusal: 'alreadyReceived' }
    for (const key of keys) this.#remember(key, now + this.#windowMs)
    return { ok: true }
  }

  #remember(key: string, until: number): void {
    if (this.#seen.size >= REMEMBERED) {
      const oldest = this.#seen.keys().next().value
      if (oldest !== undefined) this.#seen.delete(oldest)
    }
    this.#seen.set(key, until)
  }

  /** Entries are kept in the order they expire, so the sweep stops at the first one still good. */
  #forgetBefore(now: number): void {
    for (const [key, until] of this.#seen) {
      if (until > now) return
      this.#seen.delete(key)
    }
  }
}

/** What a delivery is remembered by: its own HMAC, so the guard keeps no body. */
function digestOf(secret: string | Uint8Array, body: string | Uint8Array | ArrayBuffer): string {
  return createHmac('sha256', secret).update(bytesOf(body)).digest('hex')
}

/** `<timestamp>.<body>`, the bytes a timestamped delivery is signed over, the body's bytes as sent. */
function withTimestamp(timestamp: string, body: string | Uint8Array | ArrayBuffer): Uint8Array {
  return Buffer.concat([Buffer.from(`${timestamp}.`), bytesOf(body)])
}

function bytesOf(body: string | Uint8Array | ArrayBuffer): Uint8Array {
  if (typeof body === 'string') return new TextEncoder().encode(body)
  return body instanceof ArrayBuffer ? new Uint8Array(body) : body
}
