// The signal spore inside the real core, once per way of reaching signal-cli: the daemon's JSON-RPC
// over a unix socket and over TCP, and signal-cli-rest-api. The real help spore answers through
// the mycelium; replies arrive at the fake as JSON-RPC `send` requests or REST /v2/send calls.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { type CoreWith, startCoreWith } from '../../../core/test/support/boot-core.ts'
import { LONG_DONE, LONG_REPLY_SPORE, LONG_TEXT } from '../../../core/test/support/long-reply.ts'
import {
  ALICE,
  BOB,
  BOOK_CLUB,
  directMessage,
  eventually,
  type FakePeer,
  groupMessage,
  PEER_KINDS,
  type ReceivePayload,
  type SentMessage,
} from './fake/index.ts'

const SPORES = join(import.meta.dir, '..', '..')
const HELP_LINE = '/help [command] — List the commands you can run here, or explain one of them'

for (const kind of PEER_KINDS) {
  describe(`the signal spore in the real core, through a fake ${kind.label}`, () => {
    let fake: FakePeer
    let core: CoreWith

    beforeAll(async () => {
      fake = kind.start()
      core = await startCoreWith({
        sporeFolders: [join(SPORES, 'signal'), join(SPORES, 'help')],
        spores: { long: LONG_REPLY_SPORE },
        settings: { signal: { ...fake.config } },
        // Bob is a newcomer (the default role: help only); Alice may also ask for the long answer.
        roles: { reader: ['help.*', 'long.*'] },
        grants: [{ channel: 'signal', externalId: ALICE.uuid, roles: ['reader'] }],
      })
      await eventually(() => fake.connections() === 1, 'the hypha to connect to the fake')
    })

    afterAll(async () => {
      await core?.stop()
      fake?.close()
    })

    /** Pushes a received message and waits until `count` messages have been sent back. */
    async function exchange(payload: ReceivePayload, count = 1): Promise<SentMessage[]> {
      const mark = fake.sent().length
      fake.push(payload)
      await eventually(() => fake.sent().length >= mark + count, `${count} replies from the core`, 10_000)
      return fake.sent().slice(mark)
    }

    it('germinates and connects', () => {
      const lines = core.running.report()
      expect(lines.find((line) => line.name === 'signal')?.state).toBe('live')
      expect(lines.find((line) => line.name === 'help')?.state).toBe('live')
    })

    it('answers /help in a direct chat with what that reader may run', async () => {
      const [reply, ...more] = await exchange(directMessage({ from: ALICE, text: '/help' }))
      expect(more).toEqual([])
      expect(reply?.to).toBe(ALICE.uuid)
      expect(reply?.text).toContain('The 2 commands you can run here:')
      expect(reply?.text).toContain(HELP_LINE)
      expect(reply?.text).toContain('/long — Answer with a very long text')
    })

    it('answers /help in a group, to the group, with what a newcomer may run', async () => {
      const [reply, ...more] = await exchange(groupMessage({ from: BOB, text: '/help' }))
      expect(more).toEqual([])
      expect(reply?.to).toBe(`group:${BOOK_CLUB.id}`)
      expect(reply?.text).toContain('The command you can run here:')
      expect(reply?.text).toContain(HELP_LINE)
      expect(reply?.text).not.toContain('/long')
    })

    it('delivers a long reply whole, and before the reply that follows it', async () => {
      const replies = await exchange(directMessage({ from: ALICE, text: '/long' }), 2)
      expect(LONG_TEXT.length).toBeGreaterThan(4_500)
      expect(replies).toEqual([
        { to: ALICE.uuid, text: LONG_TEXT, attachments: [] },
        { to: ALICE.uuid, text: LONG_DONE, attachments: [] },
      ])
    })

    it('reconnects to a signal-cli that went away and answers the next message', async () => {
      fake.goDown()
      await core.waitForLog('signal-cli went away; reconnecting')
      fake.comeBack()
      await core.waitForLog('reconnected to signal-cli')
      await eventually(() => fake.connections() === 1, 'the new connection')
      const [reply] = await exchange(directMessage({ from: BOB, text: '/help' }))
      expect(reply?.to).toBe(BOB.uuid)
      expect(reply?.text).toContain(HELP_LINE)
    })
  })
}
