// group-gate inside the real core: a test channel that can list group members (the `chat` hypha
// answers `<group>-member` as the one member of any group), the shipped help spore, real SQLite.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { realSpore } from '../../../../core/test/support/real-spores.ts'
import { startTestCore, type TestCore } from '../../../../core/test/support/runtime.ts'

const GATE = realSpore(join(import.meta.dir, '..'))
/** A channel that cannot tell who is in a group. */
const PLAIN_HYPHA = {
  'spore.yaml': 'kind: hypha\nname: plain\nseptum: "^1.0"\n',
  'src/index.ts': `export default { create: () => ({
  async connect() {}, async listen() {}, async stop() {}, async send() {},
}) }
`,
}

const refusals = (core: TestCore) => core.logs().filter((line) => line.msg === 'message refused at admission')

describe('group-gate in the real core', () => {
  let core: TestCore
  beforeAll(async () => {
    core = await startTestCore({
      spores: { 'group-gate': GATE, help: realSpore('help') },
      settings: { 'group-gate': { groups: { chat: ['book-club'] } } },
    })
  })
  afterAll(() => core?.stop())

  it('answers a member of a configured group, in a direct message and in the group', async () => {
    const line = core.germination.byName.get('group-gate')
    expect(line?.state).toBe('live')
    expect((await core.ask('/help', { from: 'book-club-member' }))[0]).toContain('/help')
    const inGroup = await core.ask('/help', { from: 'book-club-member', group: { id: 'book-club' } })
    expect(inGroup[0]).toContain('/help')
  })

  it('says nothing to anyone else, even the owner, and tells the operator why', async () => {
    expect(await core.ask('/help', { from: 'owner' })).toEqual([])
    expect(await core.ask('/help', { from: 'stranger', group: { id: 'book-club' } })).toEqual([])
    expect(refusals(core).map((line) => [line.inhibitor, line.sender, line.reason])).toEqual([
      ['group-gate', 'owner', 'owner on chat is in none of the allowed groups (book-club)'],
      ['group-gate', 'stranger', 'stranger on chat is in none of the allowed groups (book-club)'],
    ])
  })
})

describe('group-gate over a channel that cannot list members', () => {
  let core: TestCore
  beforeAll(async () => {
    core = await startTestCore({
      spores: { 'group-gate': GATE, help: realSpore('help'), plain: PLAIN_HYPHA },
      settings: { 'group-gate': { groups: { chat: ['book-club'], plain: ['anything'] } } },
    })
  })
  afterAll(() => core?.stop())

  it('stays dormant, naming the capability, and refuses all traffic rather than run inert', async () => {
    const line = core.germination.byName.get('group-gate')
    expect(line?.state).toBe('dormant')
    expect(line?.reason).toContain('group_membership')
    expect(await core.ask('/help', { from: 'book-club-member' })).toEqual([])
    expect(String(refusals(core)[0]?.reason)).toContain('all traffic refused')
  })
})
