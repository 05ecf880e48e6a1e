import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/** A random token for a cookie or a link: 32 bytes, URL-safe. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url')
}

/** Letters and digits a person reads off a chat message and types without confusing 0/O or 1/I. */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTVWXYZ23456789'

/** A code a person types: 10 characters (about 49 bits), only ever good once and for minutes. */
export function randomCode(): string {
  const bytes = randomBytes(10)
  return [...bytes].map((byte) => CODE_ALPHABET[byte % CODE_ALPHABET.length]).join('')
}

/** What the store keeps instead of a token: a copied database opens nothing. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

/** Compares two texts without telling by timing how much of them matched. */
export function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}
