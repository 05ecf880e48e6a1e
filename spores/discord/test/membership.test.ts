import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { connectedRig, type Rig } from './harness.ts'

describe('listGroupMembers', () => {
  let rig: Rig

  beforeAll(async () => {
    rig = await connectedRig()
  })

  afterAll(async () => {
    await rig.stop()
  })

  it("answers the guild's members as discord identities with their display names", async () => {
    const { fake } = rig
    const members = await rig.hypha.listGroupMembers(fake.world.guildId)
    const byId = (id: string) => members.find((member) => member.externalId === id)
    expect(members).toHaveLength(fake.world.people.length)
    expect(byId(fake.world.alice.user.id)).toEqual({
      channel: 'discord',
      externalId: fake.world.alice.user.id,
      displayName: 'Ali',
    })
    expect(byId(fake.world.bob.user.id)?.displayName).toBe('Bobby')
    expect(byId(fake.world.carol.user.id)?.displayName).toBe('carol')
    const list = await fake.rest.requests.waitFor(
      (request) => request.path === `/guilds/${fake.world.guildId}/members`,
    )
    expect(list.method).toBe('GET')
    expect(list.query.get('limit')).toBe('1000')
  })

  it('refuses a guild the bot is not in', async () => {
    await expect(rig.hypha.listGroupMembers('123456789012345678')).rejects.toThrow(
      'discord: the bot is not in a server with id 123456789012345678',
    )
  })
})

describe('listGroupMembers in a large guild', () => {
  it('pages through the member list, each page after the last id of the one before', async () => {
    const rig = await connectedRig({ fake: { crowd: 1_200 } })
    try {
      const { fake } = rig
      const members = await rig.hypha.listGroupMembers(fake.world.guildId)
      expect(members).toHaveLength(1_205)
      expect(new Set(members.map((member) => member.externalId)).size).toBe(1_205)
      const pages = fake.rest.requests.entries.filter((request) => request.path.endsWith('/members'))
      expect(pages.map((page) => page.status)).toEqual([200, 200])
      const firstPageIds = members.slice(0, 1_000).map((member) => BigInt(member.externalId))
      const highest = firstPageIds.sort((a, b) => (a < b ? -1 : 1)).at(-1)
      expect(pages[1]?.query.get('after')).toBe(String(highest))
    } finally {
      await rig.stop()
    }
  })
})

describe('listGroupMembers with a guild list', () => {
  it('refuses a guild the operator did not list', async () => {
    const rig = await connectedRig({ config: { guilds: ['123456789012345678'] } })
    try {
      await expect(rig.hypha.listGroupMembers(rig.fake.world.guildId)).rejects.toThrow(
        `discord: server ${rig.fake.world.guildId} is not one this hypha is configured to serve`,
      )
    } finally {
      await rig.stop()
    }
  })
})
