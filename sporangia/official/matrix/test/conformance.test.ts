import { expect, it } from 'bun:test'
import { join } from 'node:path'
import { hyphaChecks } from '@mycelo/septum/conformance'
import { sporeFiles } from '../../kit/catalogues.ts'
import module from '../src/index.ts'
import { startFakeMatrix } from './fake/index.ts'
import { hyphaContext, newRecords, settingsFor } from './harness.ts'

const { manifest } = sporeFiles(join(import.meta.dir, '..'))

it('passes the hypha conformance kit against the fake homeserver', async () => {
  const fake = startFakeMatrix()
  try {
    const config = { homeserverUrl: fake.homeserverUrl, accessToken: fake.token, acceptInvites: 'none' }
    const failures = await hyphaChecks({
      name: 'matrix',
      manifest,
      module,
      config,
      invalidConfig: { homeserverUrl: 'nowhere', accessToken: '' },
      context: () => hyphaContext(settingsFor(config), newRecords()),
      membershipGroupId: fake.world.groupRoom,
      conversationId: fake.world.directRoom,
    })
    expect(failures).toEqual([])
    expect(fake.server.sent.entries.some((sent) => sent.event.content.body === 'conformance check')).toBe(
      true,
    )
    expect(fake.server.calls.entries.some((call) => call.path.endsWith('/joined_members'))).toBe(true)
  } finally {
    await fake.stop()
  }
})
