import type { Attachment } from '../contract/index.ts'

/**
 * An outgoing attachment's bytes and file name, for a channel that uploads files. Bytes are taken
 * as they are; a URL is downloaded first (the service may not reach it, and a failed download must
 * be an error, not an error page sent under the file's name). Only http(s) is fetched.
 */
export async function attachmentBytes(
  attachment: Attachment,
  where: { readonly channel: string; readonly index: number },
): Promise<{ bytes: Uint8Array; name: string }> {
  const { channel, index } = where
  const fallback = `attachment-${index + 1}`
  if (attachment.data !== undefined) return { bytes: attachment.data, name: attachment.name ?? fallback }
  if (attachment.url === undefined)
    throw new Error(`${channel}: attachment ${index + 1} has neither data nor a url`)
  const url = new URL(attachment.url)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`${channel}: attachment ${index + 1} has a ${url.protocol} url; only http(s) is fetched`)
  }
  const response = await fetch(url)
  if (!response.ok) {
    throw new Error(`${channel}: attachment ${index + 1} could not be downloaded: HTTP ${response.status}`)
  }
  const name = attachment.name ?? decodeURIComponent(url.pathname.split('/').at(-1) || fallback)
  return { bytes: new Uint8Array(await response.arrayBuffer()), name }
}
