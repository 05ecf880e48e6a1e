// flood-gate inside the real core: its buckets in the bot's SQLite file (so a restart does not
// reset a flood), the slow-down notice through messages.send to the test channel.
import { afterAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { scratchFolder } from '../../../../core/test/store/scratch.ts'
import { realSpore } from '../../../../core/test/support/real-spores.ts'
import { startTestCore, type TestCore } from '../../../../core/test/support/runtime.ts'

const SPORES = { 'flood-gate': realSpore(join(import.meta.dir, '..')), help: realSpore('help') }
const SETTINGS = { 'flood-gate': { messages: 2, windowSeconds: 3600, exempt: ['chat:owner'] } }
const SLOW_DOWN =
  'Slow down: you may send 2 messages every 3,600 seconds. Your messages are ignored until then.'

const folder = scratchFolder('flood-gate')
let core: TestCore | undefined
afterAll(async () => {
  await core?.stop()
  folder.remove()
})

const start = () => startTestCore({ spores: SPORES, settings: SETTINGS, folder: folder.path })
const texts = (replies: string[]) =>
  replies.map((reply) => (reply.startsWith('Slow down') ? reply : 'answered'))

describe('flood-gate in the real core', () => {
  it('answers a sender up to the limit, then tells them once and ignores them', async () => {
    core = await start()
    const ask = (from: string) => core!.ask('/help', { from })
    expect(texts(await ask('alice'))).toEqual(['answered'])
    expect(texts(await ask('alice'))).toEqual(['answered'])
    expect(await ask('alice')).toEqual([SLOW_DOWN])
    expect(await ask('alice')).toEqual([])
    expect(core.sent.at(-1)?.conversationId).toBe('dm-alice')
    const refused = core.logs().filter((line) => line.msg === 'message refused at admission')
    expect(refused.map((line) => [line.inhibitor, line.sender])).toEqual([
      ['flood-gate', 'alice'],
      ['flood-gate', 'alice'],
    ])
  })

  it('never limits an exempt sender, nor tells a group', async () => {
    for (let i = 0; i < 4; i++)
      expect(texts(await core!.ask('/help', { from: 'owner' }))).toEqual(['answered'])
    const inClub = (from: string) => core!.ask('/help', { from, group: { id: 'club' } })
    await inClub('bob')
    await inClub('bob')
    expect(await inClub('bob')).toEqual([])
  })

  it('still holds a flood back after a restart: the buckets live in the database', async () => {
    await core!.stop()
    core = await start()
    expect(await core.ask('/help', { from: 'alice' })).toEqual([])
    expect(texts(await core.ask('/help', { from: 'carol' }))).toEqual(['answered'])
  })
})
