// kill -9 in the middle of a burst Discord rate-limits, then a new start on the same folder: every
// reply the bot accepted is posted once, in the order it was accepted. A retried post carries the
// nonce of its first try with enforce_nonce, so Discord would not show it twice either way.
import { afterAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import type { Booted } from '../../../core/test/boot/process.ts'
import { type CrashRig, crashRig, stopChild } from '../../../core/test/support/crash-boot.ts'
import { startFakeDiscord } from './fake/index.ts'

const BURST = 30

describe('the discord channel killed with SIGKILL during a rate-limited burst', () => {
  const fake = startFakeDiscord({ heartbeatInterval: 500 })
  let rig: CrashRig | undefined
  let child: Booted | undefined

  afterAll(async () => {
    if (child) await stopChild(child)
    rig?.remove()
    await fake.stop()
  })

  it('posts every accepted reply once, in order, after the next start', async () => {
    const channel = fake.world.textChannelId
    rig = crashRig({
      channelFolder: join(import.meta.dir, '..'),
      owner: { channel: 'discord', userId: fake.world.alice.user.id },
      settings: { discord: { token: fake.token, apiBaseUrl: fake.restApi } },
    })
    const replies = () =>
      fake.rest.created.entries
        .filter((message) => message.channel_id === channel && message.content.startsWith('burst #'))
        .map((message) => message.content)
    child = rig.start()
    await child.waitFor('Mycelo is running')
    fake.rest.limitRate({ messages: 5, seconds: 0.5 })
    fake.say({ channelId: channel, author: fake.world.alice, content: `/burst ${BURST}` })
    await child.waitFor('burst accepted')
    await fake.rest.created.waitForCount((message) => message.content.startsWith('burst #'), 10, 20_000)
    // Killed the moment Discord answers a post with 429: nothing is on its way then.
    const seen = fake.rest.requests.entries.length
    await fake.rest.requests.waitFor(
      (request) => request.status === 429 && fake.rest.requests.entries.indexOf(request) >= seen,
      20_000,
    )
    child.child.kill('SIGKILL')
    await child.exited()
    expect(replies().length).toBeLessThan(BURST)
    child = rig.start()
    await fake.rest.created.waitForCount((message) => message.content.startsWith('burst #'), BURST, 30_000)
    await child.waitFor('"outbox: sending what was accepted before the last stop"')
    expect(replies()).toEqual(Array.from({ length: BURST }, (_, index) => `burst #${index}`))
    // Every post of a reply carried a nonce Discord is told to enforce.
    const posts = fake.rest.requests.entries.filter(
      (request) =>
        request.method === 'POST' &&
        String((request.body as { content?: string })?.content).startsWith('burst #'),
    )
    expect(posts.every((post) => (post.body as { enforce_nonce?: boolean }).enforce_nonce === true)).toBe(
      true,
    )
  }, 90_000)
})
