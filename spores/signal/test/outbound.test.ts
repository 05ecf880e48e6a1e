import { afterEach, describe, expect, it } from 'bun:test'
import type { SignalConfig } from '../src/config.ts'
import { createSignalHypha, type SignalHypha } from '../src/index.ts'
import { eventually, recordingContext } from './fake/context.ts'
import { FakeDaemon } from './fake/daemon.ts'
import { ALICE, BOB, BOOK_CLUB, BOT_NUMBER } from './fake/frames.ts'
import { FakeRestApi, restGroupId } from './fake/rest-api.ts'

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
const PNG_URI = `data:image/png;filename=chart.png;base64,${Buffer.from(PNG).toString('base64')}`
const GROUP = `group:${BOOK_CLUB.id}`

let hypha: SignalHypha | undefined
const cleanups: (() => void)[] = []
afterEach(async () => {
  await hypha?.stop()
  for (const cleanup of cleanups.splice(0)) cleanup()
})

async function connected(config: SignalConfig, requestTimeoutMs = 5_000): Promise<SignalHypha> {
  hypha = createSignalHypha({ backoff: { initialMs: 10, maxMs: 50 }, requestTimeoutMs })
  await hypha.connect(recordingContext(config).context())
  const live = hypha
  await eventually(async () => (await live.health()).state === 'healthy', 'the hypha to connect')
  return live
}

describe('outbound to a fake signal-cli daemon', () => {
  async function daemonHypha(via: 'unix' | 'tcp' = 'unix', requestTimeoutMs?: number) {
    const daemon = FakeDaemon.start()
    cleanups.push(() => daemon.close())
    const address = via === 'unix' ? daemon.socketPath : daemon.tcpAddress
    const live = await connected({ account: BOT_NUMBER, transport: 'jsonrpc', address }, requestTimeoutMs)
    // Connecting checks the account with listGroups; these tests look at what follows.
    daemon.requests.clear()
    return { daemon, hypha: live }
  }

  it('sends text to a person as `send` with a recipient list and the account', async () => {
    const { daemon, hypha } = await daemonHypha()
    await hypha.send(ALICE.uuid, { text: 'hi Alice' })
    expect(daemon.requests.all).toEqual([
      {
        method: 'send',
        params: { recipient: [ALICE.uuid], message: 'hi Alice', account: BOT_NUMBER },
        id: 2,
        via: 'unix',
      },
    ])
  })

  it('sends text to a group by its groupId, over TCP too', async () => {
    const { daemon, hypha } = await daemonHypha('tcp')
    await hypha.send(GROUP, { text: 'hi all' })
    expect(daemon.requests.all.map(({ method, params, via }) => ({ method, params, via }))).toEqual([
      {
        method: 'send',
        params: { groupId: BOOK_CLUB.id, message: 'hi all', account: BOT_NUMBER },
        via: 'tcp',
      },
    ])
  })

  it('sends an attachment as a data URI carrying its type and name', async () => {
    const { daemon, hypha } = await daemonHypha()
    await hypha.send(ALICE.uuid, {
      text: 'the chart',
      attachments: [{ data: PNG, name: 'chart.png', contentType: 'image/png' }],
    })
    expect(daemon.requests.all[0]?.params).toEqual({
      recipient: [ALICE.uuid],
      message: 'the chart',
      attachments: [PNG_URI],
      account: BOT_NUMBER,
    })
  })

  it('gets a large attachment across whole, past what one socket write takes', async () => {
    const { daemon, hypha } = await daemonHypha()
    const big = new Uint8Array(6 * 1024 * 1024).map((_, index) => index % 251)
    await hypha.send(ALICE.uuid, { attachments: [{ data: big, name: 'big.bin' }] })
    const expected = `data:application/octet-stream;filename=big.bin;base64,${Buffer.from(big).toString('base64')}`
    expect(daemon.requests.all[0]?.params.attachments).toEqual([expected])
  })

  it('fetches an attachment given only by URL and sends its bytes', async () => {
    const { daemon, hypha } = await daemonHypha()
    const files = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response(PNG) })
    cleanups.push(() => void files.stop(true))
    await hypha.send(ALICE.uuid, {
      attachments: [{ url: `${files.url}chart.png`, name: 'chart.png', contentType: 'image/png' }],
    })
    expect(daemon.requests.all[0]?.params.attachments).toEqual([PNG_URI])
  })

  it('reacts to a person and to a group through sendReaction, targeting author and timestamp', async () => {
    const { daemon, hypha } = await daemonHypha()
    await hypha.send(ALICE.uuid, { reactTo: { messageId: `${ALICE.uuid}:1700000000123`, emoji: '👍' } })
    await hypha.send(GROUP, { reactTo: { messageId: `${BOB.uuid}:1700000000456`, emoji: '🎉' } })
    expect(daemon.requests.all.map(({ method, params }) => ({ method, params }))).toEqual([
      {
        method: 'sendReaction',
        params: {
          recipient: [ALICE.uuid],
          emoji: '👍',
          targetAuthor: ALICE.uuid,
          targetTimestamp: 1700000000123,
          account: BOT_NUMBER,
        },
      },
      {
        method: 'sendReaction',
        params: {
          groupId: BOOK_CLUB.id,
          emoji: '🎉',
          targetAuthor: BOB.uuid,
          targetTimestamp: 1700000000456,
          account: BOT_NUMBER,
        },
      },
    ])
  })

  it('rejects with what signal-cli answered when it refuses the send', async () => {
    const { daemon, hypha } = await daemonHypha()
    daemon.failNext('send', { code: -1, message: 'Failed to send message: untrusted identity' })
    await expect(hypha.send(ALICE.uuid, { text: 'hi' })).rejects.toThrow(
      'signal-cli refused send: Failed to send message: untrusted identity (code -1)',
    )
  })

  it('rejects a send the daemon never answers', async () => {
    const { daemon, hypha } = await daemonHypha('unix', 50)
    daemon.holdNext('send')
    await expect(hypha.send(ALICE.uuid, { text: 'hi' })).rejects.toThrow(
      'signal-cli did not answer send within 50 ms',
    )
  })

  it('rejects a send still waiting for its answer when the daemon goes away', async () => {
    const { daemon, hypha } = await daemonHypha()
    daemon.holdNext('send')
    const sending = hypha.send(ALICE.uuid, { text: 'hi' })
    await daemon.requests.next((request) => request.method === 'send', 'the held send')
    daemon.goDown()
    await expect(sending).rejects.toThrow('signal-cli went away before answering send')
  })
})

describe('outbound to a fake signal-cli-rest-api', () => {
  async function restHypha(extra: Partial<SignalConfig> = {}, token?: string) {
    const api = FakeRestApi.start(token === undefined ? {} : { token })
    cleanups.push(() => api.close())
    const config: SignalConfig = { account: BOT_NUMBER, transport: 'rest', address: api.url, ...extra }
    const live = await connected(config)
    api.calls.clear()
    return { api, hypha: live }
  }
  const posts = (api: FakeRestApi) => api.calls.where((call) => call.method === 'POST')

  it('sends text to a person and to a group through POST /v2/send', async () => {
    const { api, hypha } = await restHypha()
    await hypha.send(ALICE.uuid, { text: 'hi Alice' })
    await hypha.send(GROUP, { text: 'hi all' })
    expect(posts(api).map(({ path, body }) => ({ path, body }))).toEqual([
      { path: '/v2/send', body: { message: 'hi Alice', number: BOT_NUMBER, recipients: [ALICE.uuid] } },
      {
        path: '/v2/send',
        body: { message: 'hi all', number: BOT_NUMBER, recipients: [restGroupId(BOOK_CLUB)] },
      },
    ])
  })

  it('sends an attachment as base64_attachments', async () => {
    const { api, hypha } = await restHypha()
    await hypha.send(ALICE.uuid, {
      attachments: [{ data: PNG, name: 'chart.png', contentType: 'image/png' }],
    })
    expect(posts(api)[0]?.body).toEqual({
      message: '',
      number: BOT_NUMBER,
      recipients: [ALICE.uuid],
      base64_attachments: [PNG_URI],
    })
  })

  it('reacts to a person and to a group through POST /v1/reactions/<number>', async () => {
    const { api, hypha } = await restHypha()
    await hypha.send(ALICE.uuid, { reactTo: { messageId: `${ALICE.uuid}:1700000000123`, emoji: '👍' } })
    await hypha.send(GROUP, { reactTo: { messageId: `${BOB.uuid}:1700000000456`, emoji: '🎉' } })
    expect(posts(api).map(({ path, body }) => ({ path, body }))).toEqual([
      {
        path: `/v1/reactions/${BOT_NUMBER}`,
        body: { recipient: ALICE.uuid, reaction: '👍', target_author: ALICE.uuid, timestamp: 1700000000123 },
      },
      {
        path: `/v1/reactions/${BOT_NUMBER}`,
        body: {
          recipient: restGroupId(BOOK_CLUB),
          reaction: '🎉',
          target_author: BOB.uuid,
          timestamp: 1700000000456,
        },
      },
    ])
  })

  it('carries a configured bearer token on every call, the receive websocket included', async () => {
    const { api, hypha } = await restHypha({ token: 's3cret' }, 's3cret')
    await hypha.send(ALICE.uuid, { text: 'hi' })
    await hypha.listGroupMembers?.(BOOK_CLUB.id)
    expect(api.calls.all.map((call) => call.authorization)).toEqual(['Bearer s3cret', 'Bearer s3cret'])
  })

  it('rejects with what the API answered when it refuses the send', async () => {
    const { api, hypha } = await restHypha()
    api.failNext('send', { status: 400, error: 'Failed to send message: unregistered user' })
    await expect(hypha.send(ALICE.uuid, { text: 'hi' })).rejects.toThrow(
      'signal-cli-rest-api refused send: Failed to send message: unregistered user (HTTP 400)',
    )
  })
})

describe('outbound refusals before anything is sent', () => {
  it('refuses a reaction to a message id that is not <author>:<timestamp>', async () => {
    const daemon = FakeDaemon.start()
    cleanups.push(() => daemon.close())
    const live = await connected({ account: BOT_NUMBER, transport: 'jsonrpc', address: daemon.socketPath })
    daemon.requests.clear()
    await expect(
      live.send(ALICE.uuid, { reactTo: { messageId: 'not-a-signal-id', emoji: '👍' } }),
    ).rejects.toThrow('cannot react to "not-a-signal-id": a Signal message id is <author>:<timestamp>')
    await expect(live.send('', { text: 'hi' })).rejects.toThrow('cannot send to an empty conversation id')
    await expect(live.send('group:', { text: 'hi' })).rejects.toThrow(
      'cannot send to "group:": the group id is missing',
    )
    await expect(live.send(ALICE.uuid, { attachments: [{ name: 'nothing' }] })).rejects.toThrow(
      'cannot send an attachment with neither data nor a url',
    )
    expect(daemon.requests.all).toEqual([])
  })
})
