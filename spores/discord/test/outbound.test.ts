import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { DiscordHypha } from '../src/hypha.ts'
import type { RecordedRequest } from './fake/index.ts'
import { connectedRig, type Rig } from './harness.ts'

interface MessageBody {
  readonly content?: string
}

describe('outbound messages', () => {
  let rig: Rig

  beforeAll(async () => {
    rig = await connectedRig()
  })

  afterAll(async () => {
    await rig.stop()
  })

  const postsTo = (channelId: string) => (request: RecordedRequest) =>
    request.method === 'POST' && request.path === `/channels/${channelId}/messages`
  const contentOf = (request: RecordedRequest) => (request.body as MessageBody | undefined)?.content

  it('splits a 4,500-character reply into three ordered messages at line boundaries', async () => {
    const { fake } = rig
    const lines = Array.from({ length: 90 }, (_, index) =>
      `line ${String(index).padStart(2, '0')} `.padEnd(49, '.'),
    )
    const text = lines.map((line) => `${line}\n`).join('')
    expect(text.length).toBe(4_500)
    await rig.hypha.send(fake.world.textChannelId, { text })
    const posts = fake.rest.requests.entries.filter(postsTo(fake.world.textChannelId))
    expect(posts).toHaveLength(3)
    const contents = posts.map(contentOf)
    for (const content of contents) expect(content?.length ?? 0).toBeLessThanOrEqual(2_000)
    expect(contents.join('\n')).toBe(text)
    expect(contents[0]?.startsWith('line 00 ')).toBe(true)
    expect(contents[1]?.startsWith('line 40 ')).toBe(true)
    expect(contents[2]?.startsWith('line 80 ')).toBe(true)
    expect(posts.every((post) => post.status === 200)).toBe(true)
  })

  it('uploads bytes as a multipart file on the message', async () => {
    const { fake } = rig
    const data = new TextEncoder().encode('hyphae all the way down')
    await rig.hypha.send(fake.world.textChannelId, {
      text: 'the notes',
      attachments: [{ data, name: 'notes.txt', contentType: 'text/plain' }],
    })
    const post = await fake.rest.requests.waitFor(
      (request) => postsTo(fake.world.textChannelId)(request) && contentOf(request) === 'the notes',
    )
    expect(post.files?.map((file) => file.name)).toEqual(['notes.txt'])
    expect(new TextDecoder().decode(post.files?.[0]?.bytes)).toBe('hyphae all the way down')
  })

  it('downloads a URL attachment and uploads its bytes', async () => {
    const { fake } = rig
    const hosted = fake.rest.host({
      name: 'cap.png',
      bytes: new Uint8Array([137, 80, 78, 71]),
      contentType: 'image/png',
    })
    await rig.hypha.send(fake.world.textChannelId, { attachments: [{ url: hosted.url }] })
    const post = await fake.rest.requests.waitFor(
      (request) => postsTo(fake.world.textChannelId)(request) && request.files?.[0]?.name === 'cap.png',
    )
    expect([...(post.files?.[0]?.bytes ?? [])]).toEqual([137, 80, 78, 71])
  })

  it('refuses an attachment URL that is not http(s), rather than reading a local file', async () => {
    const send = rig.hypha.send(rig.fake.world.textChannelId, {
      attachments: [{ url: 'file:///etc/hostname' }],
    })
    await expect(send).rejects.toThrow('attachment 1 has a file: url; only http(s) is fetched')
  })

  it('refuses an attachment URL that does not download', async () => {
    const missing = `${rig.fake.restApi.replace(/\/api$/, '')}/attachments/1/missing.png`
    const send = rig.hypha.send(rig.fake.world.textChannelId, { attachments: [{ url: missing }] })
    await expect(send).rejects.toThrow('attachment 1 could not be downloaded: HTTP 404')
  })

  it('refuses an attachment with neither bytes nor a URL', async () => {
    const send = rig.hypha.send(rig.fake.world.textChannelId, { attachments: [{ name: 'nothing.txt' }] })
    await expect(send).rejects.toThrow('attachment 1 has neither data nor a url')
  })

  it('adds a reaction to an earlier message', async () => {
    const { fake } = rig
    const target = fake.say({
      channelId: fake.world.textChannelId,
      author: fake.world.alice,
      content: 'react to me',
    })
    await rig.hypha.send(fake.world.textChannelId, { reactTo: { messageId: target.id, emoji: '🍄' } })
    const put = await fake.rest.requests.waitFor((request) => request.method === 'PUT')
    expect(put.path).toBe(
      `/channels/${fake.world.textChannelId}/messages/${target.id}/reactions/${encodeURIComponent('🍄')}/@me`,
    )
    expect(put.status).toBe(204)
  })

  it('keeps a reply to a thread in the thread', async () => {
    const { fake } = rig
    await rig.hypha.send(fake.world.threadId, { text: 'threaded answer' })
    const post = await fake.rest.requests.waitFor((request) => contentOf(request) === 'threaded answer')
    expect(post.path).toBe(`/channels/${fake.world.threadId}/messages`)
  })

  it('answers a DM in the DM channel', async () => {
    const { fake } = rig
    const dm = fake.world.dmChannelId(fake.world.bob.user.id)
    const heard = fake.say({ channelId: dm, author: fake.world.bob, content: 'hi bot' })
    await rig.emitted.waitFor((message) => message.messageId === heard.id)
    await rig.hypha.send(dm, { text: 'hi bob' })
    const post = await fake.rest.requests.waitFor((request) => contentOf(request) === 'hi bob')
    expect(post.path).toBe(`/channels/${dm}/messages`)
  })

  it('holds a message Discord rate-limits, says how many wait, and posts them in order once it passes', async () => {
    const { fake } = rig
    const channel = fake.world.textChannelId
    fake.rest.rateLimitNext(1, { retryAfter: 0.05 })
    await Promise.all([
      rig.hypha.send(channel, { text: 'patience' }),
      rig.hypha.send(channel, { text: 'after patience' }),
    ])
    const waiting = rig.logs.entries
      .filter(
        (line) => line.message === 'discord: Discord rate-limited the bot; messages wait to be sent in order',
      )
      .map((line) => line.meta?.waiting)
    expect(waiting).toEqual([2])
    const attempts = fake.rest.requests.entries
      .filter((request) => ['patience', 'after patience'].includes(contentOf(request) ?? ''))
      .map((request) => [contentOf(request), request.status])
    expect(attempts).toEqual([
      ['patience', 429],
      ['patience', 200],
      ['after patience', 200],
    ])
  })

  it('holds a message under the global rate limit the same way', async () => {
    const { fake } = rig
    fake.rest.rateLimitNext(1, { retryAfter: 0.05, scope: 'global' })
    await rig.hypha.send(fake.world.textChannelId, { text: 'globally patient' })
    await fake.rest.requests.waitFor(
      (request) => contentOf(request) === 'globally patient' && request.status === 200,
    )
    const statuses = fake.rest.requests.entries
      .filter((request) => contentOf(request) === 'globally patient')
      .map((request) => request.status)
    expect(statuses).toEqual([429, 200])
  })

  it('posts a message sent twice with one delivery id once: the nonce is enforced, per piece', async () => {
    const { fake } = rig
    const channel = fake.world.textChannelId
    const text = `${'twice '.repeat(400)}\n${'again '.repeat(100)}`
    await rig.hypha.send(channel, { text }, { deliveryId: 'a1b2c3d4e5f6g7h8' })
    await rig.hypha.send(channel, { text }, { deliveryId: 'a1b2c3d4e5f6g7h8' })
    const created = fake.rest.created.entries.filter(
      (message) => message.content.startsWith('twice') || message.content.startsWith('again'),
    )
    expect(created.map((message) => message.nonce)).toEqual(['a1b2c3d4e5f6g7h8-0', 'a1b2c3d4e5f6g7h8-1'])
    const posts = fake.rest.requests.entries.filter((request) =>
      ['a1b2c3d4e5f6g7h8-0', 'a1b2c3d4e5f6g7h8-1'].includes(
        String((request.body as { nonce?: string })?.nonce),
      ),
    )
    expect(
      posts.map((post) => [post.status, (post.body as { enforce_nonce?: boolean }).enforce_nonce]),
    ).toEqual([
      [200, true],
      [200, true],
      [200, true],
      [200, true],
    ])
  })

  it('refuses a conversation that is no channel the bot can write to', async () => {
    await expect(rig.hypha.send('999999999999999999', { text: 'lost' })).rejects.toThrow(
      'discord: 999999999999999999 is not a channel, thread or DM the bot can write to',
    )
  })
})

describe('outbound before connect', () => {
  it('refuses to send while not connected', async () => {
    await expect(new DiscordHypha().send('1', { text: 'x' })).rejects.toThrow(
      'discord: send() called while not connected',
    )
  })
})
