// Matrix end to end: N direct messages handed to matrix-js-sdk by a fake homeserver's /sync,
// through the matrix spore and the whole core path (a respond: command), answered as events the
// homeserver receives — next to a floor measured in the same run: a bare matrix-js-sdk client
// (its own startClient sync) replying from its timeline listener.
import { join } from 'node:path'
import { ClientEvent, createClient, type MatrixEvent, RoomEvent, SyncState } from 'matrix-js-sdk'
import { logger as sdkLogger } from 'matrix-js-sdk/lib/logger.js'
import { startCoreWith } from '../core/test/support/boot-core.ts'
import { BOT, type FakeMatrix, startFakeMatrix } from '../sporangia/official/matrix/test/fake/index.ts'
import { botSide, type ChannelFigures, type ChatSide, measurePath } from './chat-sides.ts'
import { BENCH_ENZYME } from './spores.ts'

const WARM_UP = 50

function pingOn(fake: FakeMatrix): () => Promise<void> {
  return async () => {
    const sent = fake.server.sent
    const before = sent.entries.length
    const replied = sent.waitFor(
      (s) => sent.entries.length > before && s.event.content.body === 'pong',
      10_000,
    )
    fake.say(fake.world.directRoom, fake.world.alice, '/ping')
    await replied
  }
}

const pongsOf = (fake: FakeMatrix) => () =>
  fake.server.sent.entries.filter((s) => s.event.content.body === 'pong').length

async function coreSide(): Promise<ChatSide> {
  const fake = startFakeMatrix()
  const core = await startCoreWith({
    sporeFolders: [join(import.meta.dir, '..', 'sporangia', 'official', 'matrix')],
    spores: { bench: BENCH_ENZYME },
    settings: {
      matrix: { homeserverUrl: fake.homeserverUrl, accessToken: fake.token, acceptInvites: 'none' },
    },
    roles: { crowd: ['bench.*'] },
    grants: [{ channel: 'matrix', externalId: fake.world.alice.userId, roles: ['crowd'] }],
    logLevel: 'warn',
  })
  const side = botSide({ channel: 'matrix', core, fake, ping: pingOn(fake), pongs: pongsOf(fake) })
  // The first sync is history; ping once it is past.
  while (
    !fake.server.calls.entries.some((call) => call.path.endsWith('/sync') && call.query.since !== undefined)
  )
    await Bun.sleep(10)
  return side
}

/** The floor: matrix-js-sdk's own sync, answering /ping from its timeline listener with nothing between. */
async function floorSide(): Promise<ChatSide> {
  const fake = startFakeMatrix()
  // The full client logs each event it echoes; the bench prints figures only.
  ;(sdkLogger as unknown as { disableAll(): void }).disableAll()
  const quiet = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, getChild: () => quiet }
  const client = createClient({
    baseUrl: fake.homeserverUrl,
    accessToken: fake.token,
    userId: BOT,
    logger: quiet,
  })
  client.on(RoomEvent.Timeline, (event: MatrixEvent, room, toStart, _removed, data) => {
    if (toStart || !data?.liveEvent || event.getSender() === BOT || room === undefined) return
    if (event.getContent().body === '/ping') void client.sendTextMessage(room.roomId, 'pong')
  })
  const prepared = new Promise<void>((resolve) =>
    client.on(ClientEvent.Sync, (state) => {
      if (state === SyncState.Prepared) resolve()
    }),
  )
  await client.startClient({ initialSyncLimit: 0 })
  await prepared
  return {
    ping: pingOn(fake),
    pongs: pongsOf(fake),
    async stop() {
      client.stopClient()
      await fake.stop()
    },
  }
}

export function matrixPath(count: number): Promise<ChannelFigures> {
  return measurePath({ floorSide, coreSide, count, warmUp: WARM_UP })
}
