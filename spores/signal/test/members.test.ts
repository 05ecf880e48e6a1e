import { afterEach, describe, expect, it } from 'bun:test'
import { createSignalHypha, type SignalHypha } from '../src/index.ts'
import { eventually, type RecordingContext, recordingContext } from './fake/context.ts'
import { FakeDaemon } from './fake/daemon.ts'
import { ALICE, BOB, BOOK_CLUB, BOT_NUMBER } from './fake/frames.ts'
import { FakeRestApi } from './fake/rest-api.ts'

let hypha: SignalHypha | undefined
const cleanups: (() => void)[] = []
afterEach(async () => {
  await hypha?.stop()
  for (const cleanup of cleanups.splice(0)) cleanup()
})

async function connect(recording: RecordingContext): Promise<SignalHypha> {
  hypha = createSignalHypha({ backoff: { initialMs: 10, maxMs: 40 } })
  await hypha.connect(recording.context())
  const live = hypha
  await eventually(async () => (await live.health()).state === 'healthy', 'the hypha to connect')
  return live
}

const warnings = (recording: RecordingContext) =>
  recording.logs.where((line) => line.level === 'warn').map(({ message, meta }) => ({ message, meta }))

describe('listGroupMembers against a fake signal-cli daemon', () => {
  function daemonRecording() {
    const daemon = FakeDaemon.start()
    cleanups.push(() => daemon.close())
    return {
      daemon,
      recording: recordingContext({ account: BOT_NUMBER, transport: 'jsonrpc', address: daemon.socketPath }),
    }
  }

  it('answers the members listGroups names, by uuid, for the group id or its conversation id', async () => {
    const { daemon, recording } = daemonRecording()
    const live = await connect(recording)
    daemon.requests.clear() // connecting checked the account with a listGroups of its own
    const expected = [
      { channel: 'signal', externalId: ALICE.uuid },
      { channel: 'signal', externalId: BOB.uuid },
    ]
    expect(await live.listGroupMembers!(BOOK_CLUB.id)).toEqual(expected)
    expect(await live.listGroupMembers!(`group:${BOOK_CLUB.id}`)).toEqual(expected)
    expect(daemon.requests.all.map(({ method, params }) => ({ method, params }))).toEqual([
      { method: 'listGroups', params: { account: BOT_NUMBER } },
      { method: 'listGroups', params: { account: BOT_NUMBER } },
    ])
  })

  it('answers [] and logs why when the daemon refuses listGroups', async () => {
    const { daemon, recording } = daemonRecording()
    const live = await connect(recording)
    daemon.failNext('listGroups', { code: -3, message: 'Failed to read groups' })
    expect(await live.listGroupMembers!(BOOK_CLUB.id)).toEqual([])
    expect(warnings(recording)).toEqual([
      {
        message: 'cannot list the group members; answering none',
        meta: {
          groupId: BOOK_CLUB.id,
          error: 'signal-cli refused listGroups: Failed to read groups (code -3)',
        },
      },
    ])
  })

  it('answers [] and logs why for a group signal-cli does not list', async () => {
    const { recording } = daemonRecording()
    const live = await connect(recording)
    expect(await live.listGroupMembers!('bm8gc3VjaCBncm91cA==')).toEqual([])
    expect(warnings(recording)).toEqual([
      {
        message: 'signal-cli does not list this group; answering no members',
        meta: { groupId: 'bm8gc3VjaCBncm91cA==' },
      },
    ])
  })

  it('answers [] and logs why while the daemon is away', async () => {
    const { daemon, recording } = daemonRecording()
    const live = await connect(recording)
    daemon.goDown()
    await eventually(async () => (await live.health()).state === 'degraded', 'the hypha to notice')
    expect(await live.listGroupMembers!(BOOK_CLUB.id)).toEqual([])
    // Retry warnings interleave with it, so only the line about the members is looked at.
    const listing = warnings(recording).filter((line) => line.message.startsWith('cannot list'))
    expect(listing).toEqual([
      {
        message: 'cannot list the group members; answering none',
        meta: {
          groupId: BOOK_CLUB.id,
          error: `signal-cli is not connected (reconnecting to ${daemon.socketPath})`,
        },
      },
    ])
  })
})

describe('listGroupMembers against a fake signal-cli-rest-api', () => {
  function restRecording() {
    const api = FakeRestApi.start()
    cleanups.push(() => api.close())
    return { api, recording: recordingContext({ account: BOT_NUMBER, transport: 'rest', address: api.url }) }
  }

  it('answers the members GET /v1/groups/<number> names, matching signal-cli group id to internal_id', async () => {
    const { api, recording } = restRecording()
    const live = await connect(recording)
    api.calls.clear() // connecting checked the account with a groups call of its own
    expect(await live.listGroupMembers!(BOOK_CLUB.id)).toEqual([
      { channel: 'signal', externalId: ALICE.number },
      { channel: 'signal', externalId: BOB.number },
    ])
    expect(api.calls.where((call) => call.path.startsWith('/v1/groups')).map((call) => call.path)).toEqual([
      `/v1/groups/${BOT_NUMBER}`,
    ])
  })

  it('answers [] and logs why when the API refuses', async () => {
    const { api, recording } = restRecording()
    const live = await connect(recording)
    api.failNext('groups', { status: 400, error: 'Failed to list groups' })
    expect(await live.listGroupMembers!(BOOK_CLUB.id)).toEqual([])
    expect(warnings(recording)).toEqual([
      {
        message: 'cannot list the group members; answering none',
        meta: {
          groupId: BOOK_CLUB.id,
          error: 'signal-cli-rest-api refused groups: Failed to list groups (HTTP 400)',
        },
      },
    ])
  })
})
