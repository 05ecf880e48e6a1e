import { strainStatement } from '@mycelo/septum'

/**
 * Whether `signature` (base64) is the publisher key's Ed25519 signature of the strain statement.
 * The key is the one pinned for the source, never one read beside the archive.
 */
export async function verifyStrainSignature(options: {
  readonly publisherKey: string
  readonly spore: string
  readonly strain: string
  readonly sha256: string
  readonly signature: string
}): Promise<boolean> {
  const raw = Buffer.from(options.publisherKey.replace(/^ed25519:/, ''), 'base64')
  const signature = Buffer.from(options.signature, 'base64')
  if (raw.byteLength !== 32 || signature.byteLength !== 64) return false
  try {
    const key = await crypto.subtle.importKey('raw', raw, { name: 'Ed25519' }, false, ['verify'])
    return await crypto.subtle.verify(
      { name: 'Ed25519' },
      key,
      signature,
      new Uint8Array(strainStatement(options.spore, options.strain, options.sha256)),
    )
  } catch {
    return false
  }
}
