import { describe, expect, it } from 'bun:test'
import type { ConfigIssue } from '@mycelo/septum'
import { configSchema } from '../src/config.ts'

const BASE = { homeserverUrl: 'https://matrix.example.org', accessToken: 'syt_abc' }

function issues(settings: Record<string, unknown>): { path: string; key: unknown }[] {
  const parsed = configSchema.safeParse(settings)
  if (parsed.success) return []
  return parsed.error.issues.map((issue: ConfigIssue) => ({
    path: issue.path.join('.'),
    key: issue.messageKey,
  }))
}

describe('matrix settings', () => {
  it('accept no invitation by default, and want someone listed when invitations are accepted from listed users', () => {
    expect(issues(BASE)).toEqual([])
    expect(configSchema.safeParse(BASE)).toMatchObject({ success: true, data: { acceptInvites: 'none' } })
    expect(issues({ ...BASE, acceptInvites: 'listed' })).toEqual([
      { path: 'inviters', key: 'config.inviters.empty' },
    ])
  })

  it('refuse an inviter that is not a Matrix user id', () => {
    expect(issues({ ...BASE, acceptInvites: 'listed', inviters: ['alice'] })).toEqual([
      { path: 'inviters.0', key: 'config.inviters.shape' },
    ])
    expect(issues({ ...BASE, acceptInvites: 'listed', inviters: ['@alice:example.org'] })).toEqual([])
  })

  it('refuse a homeserver address that is not http(s), and keep the token secret', () => {
    expect(issues({ ...BASE, acceptInvites: 'all', homeserverUrl: 'matrix.example.org' })[0]?.path).toBe(
      'homeserverUrl',
    )
    expect(configSchema.secrets).toEqual(['accessToken'])
  })
})
