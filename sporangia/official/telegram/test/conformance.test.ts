import { expect, it } from 'bun:test'
import { join } from 'node:path'
import { hyphaChecks } from '@mycelo/septum/conformance'
import { sporeFiles } from '../../kit/catalogues.ts'
import module from '../src/index.ts'
import { startFakeTelegram } from './fake/index.ts'
import { hyphaContext, newRecords, settingsFor } from './harness.ts'

const { manifest } = sporeFiles(join(import.meta.dir, '..'))

it('passes the hypha conformance kit against the fake Telegram', async () => {
  const fake = startFakeTelegram()
  try {
    const config = { token: fake.token, apiRoot: fake.apiRoot }
    const failures = await hyphaChecks({
      name: 'telegram',
      manifest,
      module,
      config,
      invalidConfig: { token: 'not-a-token' },
      context: () => hyphaContext(settingsFor(config), newRecords()),
      membershipGroupId: String(fake.world.group.id),
      conversationId: String(fake.world.alice.chat.id),
    })
    expect(failures).toEqual([])
    const sent = fake.api.calls.entries.find((call) => call.method === 'sendMessage')
    expect(sent?.params).toMatchObject({ text: 'conformance check' })
    expect(fake.api.calls.entries.some((call) => call.method === 'getChatAdministrators')).toBe(true)
  } finally {
    await fake.stop()
  }
})
