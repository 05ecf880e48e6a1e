// The fake works out who a message pings as Discord does, from the content and allowed_mentions,
// so the hypha's guard is held to account: user text never pings @everyone, @here or a role.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { connectedRig, type Rig } from './harness.ts'

let rig: Rig
beforeAll(async () => {
  rig = await connectedRig()
})
afterAll(async () => {
  await rig.stop()
})

const pings = (rig: Rig) =>
  `@everyone @here <@&${rig.fake.world.moderatorRoleId}> <@${rig.fake.world.alice.user.id}>`

describe('mentions in what the bot sends', () => {
  it('ping everything written when a request carries no allowed_mentions, as Discord does', async () => {
    const { fake } = rig
    const response = await fetch(`${fake.restApi}/v10/channels/${fake.world.textChannelId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bot ${fake.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: `unguarded ${pings(rig)}` }),
    })
    expect(response.status).toBe(200)
    const created = await fake.rest.created.waitFor((message) => message.content.startsWith('unguarded'))
    expect(created.mention_everyone).toBe(true)
    expect(created.mention_roles).toEqual([fake.world.moderatorRoleId])
    expect(created.mentions.map((user) => user.id)).toEqual([fake.world.alice.user.id])
  })

  it('never ping @everyone, @here or a role from the hypha, only the people named', async () => {
    const { fake } = rig
    await rig.hypha.send(fake.world.textChannelId, { text: `echoed ${pings(rig)}` })
    const created = await fake.rest.created.waitFor((message) => message.content.startsWith('echoed'))
    expect(created.mention_everyone).toBe(false)
    expect(created.mention_roles).toEqual([])
    expect(created.mentions.map((user) => user.id)).toEqual([fake.world.alice.user.id])
  })
})
