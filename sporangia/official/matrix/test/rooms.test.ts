// Invitations by policy (all, none, listed users), encrypted rooms refused with a reason the
// operator reads, and a room's members as the homeserver lists them.
import { afterEach, describe, expect, it } from 'bun:test'
import { BOT } from './fake/index.ts'
import { connectedRig, type Rig } from './harness.ts'

const rigs: Rig[] = []
afterEach(async () => {
  for (const rig of rigs.splice(0)) await rig.stop()
})

async function rigWith(settings: Record<string, unknown>): Promise<Rig> {
  const rig = await connectedRig({ settings })
  rigs.push(rig)
  return rig
}

async function membershipOf(rig: Rig, roomId: string, wanted: string): Promise<void> {
  const deadline = Date.now() + 5_000
  while (rig.fake.world.membership(roomId, BOT) !== wanted) {
    if (Date.now() > deadline) throw new Error(`the bot's membership of ${roomId} never became ${wanted}`)
    await Bun.sleep(10)
  }
}

describe('invitations', () => {
  it('accepts a listed user’s invitation, and hears the room as a direct chat when it is one', async () => {
    const rig = await rigWith({})
    const { world } = rig.fake
    rig.fake.invite('!new-dm:fake.local', world.alice, { direct: true })
    await membershipOf(rig, '!new-dm:fake.local', 'join')
    const event = rig.fake.say('!new-dm:fake.local', world.alice, 'hi')
    const heard = await rig.emitted.waitFor((m) => m.messageId === event.event_id)
    expect(heard.group).toBeUndefined()
  })

  it('declines an invitation from someone not listed, saying how to allow them', async () => {
    const rig = await rigWith({})
    rig.fake.invite('!stranger:fake.local', rig.fake.world.carol)
    await membershipOf(rig, '!stranger:fake.local', 'leave')
    const line = await rig.logs.waitFor((l) => l.message.includes('declined an invitation'))
    expect(line.message).toBe(
      'The bot declined an invitation to room !stranger:fake.local from @carol:fake.local: acceptInvites is listed. To let them invite it, add them to the inviters setting of the matrix plugin, or set acceptInvites to all.',
    )
  })

  it('accepts anyone with all, and no one with none', async () => {
    const open = await rigWith({ acceptInvites: 'all', inviters: [] })
    open.fake.invite('!club:fake.local', open.fake.world.carol, { name: 'Club' })
    await membershipOf(open, '!club:fake.local', 'join')
    const shut = await rigWith({ acceptInvites: 'none', inviters: [] })
    shut.fake.invite('!club:fake.local', shut.fake.world.alice)
    await membershipOf(shut, '!club:fake.local', 'leave')
  })

  it('refuses an encrypted room, even from a listed user, saying why', async () => {
    const rig = await rigWith({})
    rig.fake.invite('!secret:fake.local', rig.fake.world.alice, { encrypted: true })
    await membershipOf(rig, '!secret:fake.local', 'leave')
    const line = await rig.logs.waitFor((l) => l.level === 'error')
    expect(line.message).toContain(
      'The bot left room !secret:fake.local (invited by @alice:fake.local): it is end-to-end encrypted',
    )
  })

  it('leaves a room whose members turn encryption on, saying why', async () => {
    const rig = await rigWith({})
    const { world } = rig.fake
    world.append(
      world.groupRoom,
      world.stateEvent({
        sender: world.alice.userId,
        type: 'm.room.encryption',
        stateKey: '',
        content: { algorithm: 'm.megolm.v1.aes-sha2' },
      }),
    )
    rig.fake.server.changed()
    await membershipOf(rig, world.groupRoom, 'leave')
    expect((await rig.logs.waitFor((l) => l.level === 'error')).message).toContain(
      'it is end-to-end encrypted',
    )
  })
})

describe('room members', () => {
  it('lists the joined members as the homeserver does, without the bot', async () => {
    const rig = await rigWith({})
    const { world } = rig.fake
    const members = await rig.hypha.listGroupMembers(world.groupRoom)
    expect(members.map((m) => m.externalId).sort()).toEqual([world.alice.userId, world.bob.userId])
    expect(members.find((m) => m.externalId === world.bob.userId)?.displayName).toBe('Bob')
    world.member(world.groupRoom, world.bob, 'leave')
    expect((await rig.hypha.listGroupMembers(world.groupRoom)).map((m) => m.externalId)).toEqual([
      world.alice.userId,
    ])
  })
})
