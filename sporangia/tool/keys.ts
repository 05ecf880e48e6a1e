import { readFile, writeFile } from 'node:fs/promises'
import { done, refused, type ToolOutcome } from './outcome.ts'

const ED25519 = { name: 'Ed25519' } as const
const PEM_LABEL = 'PRIVATE KEY'

/** A publisher's signing key, loaded from its PKCS#8 PEM file, and its public half as an index writes it. */
export interface PublisherKey {
  readonly privateKey: CryptoKey
  /** `ed25519:<base64 of the 32 raw key bytes>`, as index.json's `publisher.key`. */
  readonly publicText: string
}

/**
 * Writes a new Ed25519 private key (PKCS#8 PEM, readable by its owner only) and answers the public
 * key's text. An existing file is never overwritten: losing a publisher key orphans a sporangium.
 */
export async function generateKey(path: string): Promise<ToolOutcome<string>> {
  const pair = (await crypto.subtle.generateKey(ED25519, true, ['sign', 'verify'])) as CryptoKeyPair
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey('pkcs8', pair.privateKey))
  const raw = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey))
  try {
    await writeFile(path, pem(pkcs8), { mode: 0o600, flag: 'wx' })
  } catch (error) {
    const code = (error as { code?: unknown }).code
    if (code === 'EEXIST') return refused('keygen.exists', { path })
    if (code === 'ENOENT') return refused('keygen.noFolder', { path })
    throw error
  }
  return done(publicKeyText(raw))
}

/** Reads a private key file written by keygen (or any PKCS#8 Ed25519 PEM). */
export async function loadKey(path: string): Promise<ToolOutcome<PublisherKey>> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch {
    return refused('key.unreadable', { path })
  }
  const body = text.match(
    new RegExp(`-----BEGIN ${PEM_LABEL}-----([A-Za-z0-9+/=\\s]+)-----END ${PEM_LABEL}-----`),
  )
  if (body === null) return refused('key.notPem', { path })
  let privateKey: CryptoKey
  try {
    privateKey = await crypto.subtle.importKey('pkcs8', Buffer.from(body[1]!, 'base64'), ED25519, true, [
      'sign',
    ])
  } catch {
    return refused('key.notEd25519', { path })
  }
  // WebCrypto exports a private key's public half only through JWK, as `x`.
  const jwk = await crypto.subtle.exportKey('jwk', privateKey)
  return done({ privateKey, publicText: publicKeyText(Buffer.from(jwk.x!, 'base64url')) })
}

/** Base64 of the 64-byte Ed25519 signature over the statement. */
export async function sign(key: PublisherKey, statement: Uint8Array): Promise<string> {
  return Buffer.from(await crypto.subtle.sign(ED25519, key.privateKey, new Uint8Array(statement))).toString(
    'base64',
  )
}

export function publicKeyText(raw: Uint8Array): string {
  return `ed25519:${Buffer.from(raw).toString('base64')}`
}

function pem(der: Uint8Array): string {
  const lines = Buffer.from(der)
    .toString('base64')
    .match(/.{1,64}/g)!
  return `-----BEGIN ${PEM_LABEL}-----\n${lines.join('\n')}\n-----END ${PEM_LABEL}-----\n`
}
