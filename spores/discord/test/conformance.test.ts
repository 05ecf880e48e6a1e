import { expect, it } from 'bun:test'
import { readFileSync } from 'node:fs'
import { hyphaChecks } from '@mycelo/septum/conformance'
import { parse } from 'yaml'
import module from '../src/index.ts'
import { startFakeDiscord } from './fake/index.ts'
import { Recorder } from './fake/recorder.ts'
import { hyphaContext } from './harness.ts'

const manifest = parse(readFileSync(new URL('../spore.yaml', import.meta.url), 'utf8'))

it('passes the hypha conformance kit against the fake Discord', async () => {
  const fake = startFakeDiscord()
  try {
    const config = { token: fake.token, apiBaseUrl: fake.restApi }
    const failures = await hyphaChecks({
      name: 'discord',
      manifest,
      module,
      config,
      invalidConfig: { token: '' },
      context: () => hyphaContext(config, { emitted: new Recorder(), logs: new Recorder() }),
      membershipGroupId: fake.world.guildId,
      conversationId: fake.world.textChannelId,
    })
    expect(failures).toEqual([])
    const sent = fake.rest.requests.entries.find((request) => request.method === 'POST')
    expect(sent?.body).toMatchObject({ content: 'conformance check' })
    expect(fake.rest.requests.entries.some((request) => request.path.endsWith('/members'))).toBe(true)
  } finally {
    await fake.stop()
  }
})
