// /events over real HTTP: a reader first gets every spore as it stands, then each state change, an
// install's progress and end, and the log lines the bot writes, secrets masked.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type { IndexServer } from '../../support/index-server.ts'
import { type ApiGround, startApiGround } from './ground.ts'
import { LOOPBACK_SPORANGIA, serveProbeSporangium } from './sporangium.ts'
import { API_SEED, API_SPORES, VAULT_TOKEN } from './spores.ts'

interface Received {
  readonly event: string
  readonly data: Record<string, unknown>
}

/** Reads Server-Sent Events off a response as they arrive. */
function sseReader(response: Response) {
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  const seen: Received[] = []
  let buffer = ''
  return {
    seen,
    /** The next event `matches` accepts, reading further as needed; every one read is kept. */
    async next(matches: (received: Received) => boolean): Promise<Received> {
      for (;;) {
        const blocks = buffer.split('\n\n')
        buffer = blocks.pop() ?? ''
        for (const block of blocks) {
          const event = /^event: (.*)$/m.exec(block)?.[1]
          const data = /^data: (.*)$/m.exec(block)?.[1]
          if (event !== undefined && data !== undefined) seen.push({ event, data: JSON.parse(data) })
        }
        const found = seen.find(matches)
        if (found !== undefined) {
          seen.splice(seen.indexOf(found), 1)
          return found
        }
        const { value, done } = await reader.read()
        if (done) throw new Error('the event stream ended')
        buffer += decoder.decode(value, { stream: true })
      }
    },
  }
}

/** The stream looks again at each keepalive beat: room for one beat on a busy machine, never a measure. */
const BEAT_WAIT = 30_000

let api: ApiGround
let server: IndexServer
let events: ReturnType<typeof sseReader>
const leave = new AbortController()

beforeAll(async () => {
  api = await startApiGround({ spores: API_SPORES, ...API_SEED, config: LOOPBACK_SPORANGIA })
  server = await serveProbeSporangium(api.folder)
  const response = await api.open('GET', '/events', { signal: leave.signal })
  expect(response.headers.get('content-type')).toContain('text/event-stream')
  events = sseReader(response)
})
afterAll(async () => {
  leave.abort()
  await server.stop()
  await api.stop()
})

type Spores = { name: string; enabled: boolean; state: string }[]
const sporesOf = (received: Received) => received.data.spores as Spores

describe('live updates', () => {
  it('starts with every spore as it stands', async () => {
    const first = await events.next((received) => received.event === 'state')
    expect(sporesOf(first).map((spore) => spore.name)).toEqual(['admin', 'beacon', 'chat', 'guard', 'vault'])
  })

  it('announces a spore switched off, and the log line the switch wrote', async () => {
    expect((await api.ask('POST', '/spores/vault/disable')).status).toBe(200)
    const changed = await events.next((received) => received.event === 'state')
    // Stopped at once, with the spores that need it: each is announced.
    expect(sporesOf(changed)).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'vault', enabled: false, state: 'disabled' })]),
    )
    const logged = await events.next(
      (received) =>
        received.event === 'log' &&
        (received.data.record as { msg: string }).msg.startsWith('plugin disabled'),
    )
    expect(logged.data.record).toMatchObject({ plugin: 'vault', level: 30 })
  })

  it(
    'announces a change made from chat too, at the stream’s next beat',
    async () => {
      await api.say('/disable guard', 'owner')
      const changed = await events.next(
        (received) =>
          received.event === 'state' && sporesOf(received).some((spore) => spore.name === 'guard'),
      )
      expect(sporesOf(changed)).toEqual([expect.objectContaining({ name: 'guard', enabled: false })])
    },
    BEAT_WAIT,
  )

  it('masks a secret in a log line before it reaches a reader', async () => {
    api.runtime.logger.info('a spore said its token out loud', { token: VAULT_TOKEN })
    const logged = await events.next(
      (received) =>
        received.event === 'log' && (received.data.record as { msg: string }).msg.includes('out loud'),
    )
    expect(JSON.stringify(logged.data)).not.toContain(VAULT_TOKEN)
  })

  it('carries an install’s progress and its end, then the new spore’s state', async () => {
    const added = await api.ask('POST', '/sources', { body: { label: 'Loopback', url: server.url } })
    expect(added.status).toBe(200)
    const installed = await api.ask('POST', '/installs', { body: { source: 'loopback', spore: 'probe' } })
    expect(installed.status).toBe(200)
    const progress = await events.next((received) => received.event === 'install')
    expect(progress.data).toMatchObject({ type: 'install', spore: 'probe', phase: 'progress' })
    expect(progress.data.received).toBeGreaterThan(0)
    const done = await events.next(
      (received) => received.event === 'install' && received.data.phase === 'done',
    )
    expect(done.data).toMatchObject({ spore: 'probe', strain: '1.1.0' })
    const state = await events.next((received) => received.event === 'state')
    expect(sporesOf(state)).toEqual([expect.objectContaining({ name: 'probe', enabled: false })])
  })

  it('carries a refused install as its end, with the refusal’s key', async () => {
    expect(
      (await api.ask('POST', '/installs', { body: { source: 'loopback', spore: 'ghost' } })).status,
    ).toBe(404)
    const refused = await events.next(
      (received) => received.event === 'install' && received.data.phase === 'refused',
    )
    expect(refused.data).toMatchObject({ spore: 'ghost', key: 'refusal.sporangium_spore_unknown' })
  })

  it('keeps log lines from a reader whose roles lack admin.logs, in order with what they may see', async () => {
    const response = await api.open('GET', '/events', { as: 'mod', signal: leave.signal })
    const moderator = sseReader(response)
    await moderator.next((received) => received.event === 'state')
    api.runtime.logger.info('a line a moderator does not read')
    expect((await api.ask('POST', '/spores/vault/enable')).status).toBe(200)
    // Events come in the order they happened: the log lines came before this state change.
    await moderator.next((received) => received.event === 'state')
    await events.next((received) => received.event === 'state')
    expect(moderator.seen.filter((received) => received.event === 'log')).toEqual([])
    expect(events.seen.some((received) => received.event === 'log')).toBe(true)
  })
})
