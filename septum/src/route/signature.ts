import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * Where each sender puts its HMAC-SHA256 of the raw body: GitHub `X-Hub-Signature-256: sha256=<hex>`,
 * Gitea (and Forgejo) `X-Gitea-Signature: <hex>`, and a generic header in either form.
 */
export type SignatureScheme = 'github' | 'gitea' | 'generic'

/** The header each scheme's sender sets; `generic` is a convention the spore's sender agrees to. */
export const SIGNATURE_HEADERS: Readonly<Record<SignatureScheme, string>> = {
  github: 'x-hub-signature-256',
  gitea: 'x-gitea-signature',
  generic: 'x-signature-256',
}

export interface SignatureCheck {
  /** The shared secret the sender signs with. */
  readonly secret: string | Uint8Array
  /** The raw body exactly as received: re-serialised JSON would not match. */
  readonly body: string | Uint8Array | ArrayBuffer
  /** The header's value as received; absent or null when the request carried none. */
  readonly header: string | null | undefined
  readonly scheme: SignatureScheme
}

const HEX_DIGEST = /^[0-9a-f]{64}$/i

/**
 * Whether `header` carries the HMAC-SHA256 of `body` under `secret`, in `scheme`'s form. Compared in
 * constant time over the digest bytes, so a caller learns nothing from how long a refusal takes;
 * a missing, malformed or wrong-length header is simply false.
 */
export function verifySignature(check: SignatureCheck): boolean {
  const hex = digestIn(check.header, check.scheme)
  if (hex === undefined || check.secret.length === 0) return false
  const expected = createHmac('sha256', check.secret).update(bytesOf(check.body)).digest()
  return timingSafeEqual(Buffer.from(hex, 'hex'), expected)
}

/** The hex digest the header carries in the scheme's form, or undefined when it carries none. */
function digestIn(header: string | null | undefined, scheme: SignatureScheme): string | undefined {
  if (typeof header !== 'string') return undefined
  const value = header.trim()
  const prefixed = value.toLowerCase().startsWith('sha256=') ? value.slice('sha256='.length) : undefined
  const hex = scheme === 'github' ? prefixed : scheme === 'gitea' ? value : (prefixed ?? value)
  return hex !== undefined && HEX_DIGEST.test(hex) ? hex : undefined
}

function bytesOf(body: string | Uint8Array | ArrayBuffer): Uint8Array {
  if (typeof body === 'string') return new TextEncoder().encode(body)
  return body instanceof ArrayBuffer ? new Uint8Array(body) : body
}
