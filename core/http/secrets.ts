import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/** A random token for a cookie or a link: 32 bytes, URL-safe. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url')
}

/** Letters and digits a person reads off a chat message and types without confusing 0/O or 1/I. */
export const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTVWXYZ23456789'

/** The bytes a code is drawn from: the system's, unless a test gives its own. */
export type RandomSource = (size: number) => Uint8Array

/**
 * A code a person types: 10 characters (about 49 bits), only ever good once and for minutes. Each
 * character is drawn without bias: a byte past the largest multiple of the alphabet's length is
 * thrown away rather than folded back, which would make the first characters likelier.
 */
export function randomCode(random: RandomSource = randomBytes): string {
  const fair = 256 - (256 % CODE_ALPHABET.length)
  let code = ''
  while (code.length < 10) {
    for (const byte of random(10 - code.length)) {
      if (byte < fair) code += CODE_ALPHABET[byte % CODE_ALPHABET.length]
    }
  }
  return code
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
