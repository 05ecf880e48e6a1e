// Which URLs the core will reach for a sporangium: https anywhere, plain http only to this machine
// and only when the operator switched it on, so nothing travels in clear by accident.

export interface UrlPolicy {
  /** `sporangia.allowLoopbackHttp` from mycelo.yaml. */
  readonly allowLoopbackHttp: boolean
}

export type UrlVerdict =
  | { readonly ok: true; readonly url: URL }
  /** `invalid`: not a URL; `local`: a file or other non-network URL; `scheme`: http off loopback, or not allowed. */
  | { readonly ok: false; readonly reason: 'invalid' | 'local' | 'scheme' | 'credentials' }

/** Whether the core may fetch from this URL. */
export function checkUrl(text: string, policy: UrlPolicy): UrlVerdict {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return { ok: false, reason: isLocalPath(text) ? 'local' : 'invalid' }
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: 'local' }
  // A password in a URL ends up in logs and listings; a source carries its token apart.
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'credentials' }
  if (url.protocol === 'http:' && !(policy.allowLoopbackHttp && isLoopback(url.hostname)))
    return { ok: false, reason: 'scheme' }
  return { ok: true, url }
}

/** A source is local when it names no network location: a file: URL or a bare path. */
export function isLocalSource(text: string): boolean {
  try {
    const { protocol } = new URL(text)
    return protocol !== 'https:' && protocol !== 'http:'
  } catch {
    return true
  }
}

function isLocalPath(text: string): boolean {
  return text.startsWith('/') || text.startsWith('./') || text.startsWith('../') || text.startsWith('~')
}

/** 127.0.0.0/8, ::1 and localhost: the names that never leave this machine. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  if (host === 'localhost' || host === '::1') return true
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
}
