// group-gate in front of the real signal spore, through a fake signal-cli daemon that speaks its
// JSON-RPC: membership comes from the daemon's listGroups, as it would on a real box.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { type CoreWith, startCoreWith } from '../../../../core/test/support/boot-core.ts'
import {
  ALICE,
  BOB,
  BOOK_CLUB,
  directMessage,
  eventually,
  type FakePeer,
  groupMessage,
  PEER_KINDS,
} from '../../../../spores/signal/test/fake/index.ts'

const SPORES = join(import.meta.dir, '..', '..', '..', '..', 'spores')
/** Someone who writes to the bot but is in no group it shares. */
const MALLORY = { number: '+15550100666', uuid: 'd00d0000-0000-4000-8000-000000000666', name: 'Mallory' }

let fake: FakePeer
let core: CoreWith
beforeAll(async () => {
  fake = PEER_KINDS[0]!.start()
  core = await startCoreWith({
    sporeFolders: [join(SPORES, 'signal'), join(SPORES, 'help'), join(import.meta.dir, '..')],
    settings: { signal: { ...fake.config }, 'group-gate': { groups: { signal: [BOOK_CLUB.id] } } },
  })
  await eventually(() => fake.connections() === 1, 'the hypha to connect to the fake')
})
afterAll(async () => {
  await core?.stop()
  fake?.close()
})

const refusals = () => core.logs().filter((line) => line.msg === 'message refused at admission')

describe('group-gate over Signal', () => {
  it('answers the book club’s members, directly and in the group', async () => {
    fake.push(directMessage({ from: ALICE, text: '/help' }))
    expect((await fake.nextSent(10_000)).to).toBe(ALICE.uuid)
    fake.push(groupMessage({ from: BOB, text: '/help' }))
    expect((await fake.nextSent(10_000)).to).toBe(`group:${BOOK_CLUB.id}`)
  })

  it('says nothing to someone in none of the groups, and tells the operator why', async () => {
    const before = fake.sent().length
    fake.push(directMessage({ from: MALLORY, text: '/help' }))
    await eventually(() => refusals().length === 1, 'the refusal at admission')
    expect(refusals()[0]).toMatchObject({ inhibitor: 'group-gate', sender: MALLORY.uuid })
    expect(String(refusals()[0]?.reason)).toContain('is in none of the allowed groups')
    // Alice is answered after him: had Mallory been answered, that reply would have come first.
    fake.push(directMessage({ from: ALICE, text: '/help' }))
    await eventually(() => fake.sent().length > before, 'the next reply')
    expect(
      fake
        .sent()
        .slice(before)
        .map((sent) => sent.to),
    ).toEqual([ALICE.uuid])
  })
})
