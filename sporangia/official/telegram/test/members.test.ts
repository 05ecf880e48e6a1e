// Group membership as far as the Bot API lets a bot know it: the administrators, and everyone seen
// writing, joining or leaving, each confirmed with Telegram whenever the list is read.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { connectedRig, type Rig } from './harness.ts'

let rig: Rig
beforeAll(async () => {
  rig = await connectedRig()
})
afterAll(() => rig.stop())

const ids = async () =>
  (await rig.hypha.listGroupMembers(String(rig.fake.world.group.id))).map((m) => m.externalId).sort()

describe('group members', () => {
  it('lists the administrators before anyone has written', async () => {
    expect(await ids()).toEqual([String(rig.fake.world.alice.user.id)])
  })

  it('adds someone once they write in the group, and someone announced as joining', async () => {
    const { world } = rig.fake
    const said = rig.fake.say({ from: world.bob, text: 'hello all', inGroup: true })
    await rig.emitted.waitFor((m) => m.messageId === String(said.message_id))
    const joined = rig.fake.say({
      from: world.alice,
      inGroup: true,
      extra: { new_chat_members: [world.carol.user] },
    })
    const marker = rig.fake.say({ from: world.alice, text: 'marker', inGroup: true })
    await rig.emitted.waitFor((m) => m.messageId === String(marker.message_id))
    expect(joined.new_chat_members).toHaveLength(1)
    expect(await ids()).toEqual([world.alice, world.bob, world.carol].map((p) => String(p.user.id)).sort())
  })

  it('drops someone who left, whether the bot saw them go or Telegram says so when asked', async () => {
    const { world } = rig.fake
    // Bob leaves while the bot was not told (no update): getChatMember says so.
    world.statuses.set(world.bob.user.id, 'left')
    expect(await ids()).not.toContain(String(world.bob.user.id))
    // Carol is removed, and the bot sees the service message.
    world.statuses.set(world.carol.user.id, 'kicked')
    const gone = rig.fake.say({
      from: world.alice,
      inGroup: true,
      extra: { left_chat_member: world.carol.user },
    })
    const marker = rig.fake.say({ from: world.alice, text: 'marker 2', inGroup: true })
    await rig.emitted.waitFor((m) => m.messageId === String(marker.message_id))
    expect(gone.left_chat_member?.id).toBe(world.carol.user.id)
    expect(await ids()).toEqual([String(world.alice.user.id)])
    expect(await rig.storage.list(`members/${world.group.id}/`)).toHaveLength(1)
  })

  it('refuses an id that is not a group', async () => {
    await expect(rig.hypha.listGroupMembers(String(rig.fake.world.alice.chat.id))).rejects.toThrow(
      'is not a Telegram group id',
    )
  })
})
