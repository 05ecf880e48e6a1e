// The person a command runs for crosses into a host and back: a mycelium call an isolated spore makes
// while serving a command is bounded by that person's roles (the role ceiling), as it is inline. Lost
// on the way, the call would run bounded by the spore's granted scopes alone: it would fail open.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { hostKeeper } from '../../hosts/keeper.ts'
import { roleNamesOf } from '../../store/index.ts'
import { realSpore } from '../support/real-spores.ts'
import { startTestCore, type TestCore } from '../support/runtime.ts'

let core: TestCore
beforeAll(async () => {
  core = await startTestCore({
    spores: { admin: realSpore('admin') },
    config: 'isolation: { default: worker, spores: { chat: inline } }\n',
    roles: { granters: ['admin.grant'] },
    grants: { granter: ['granters'], ally: ['member'] },
  })
})
afterAll(() => core.stop())

const one = async (text: string, from: string) => (await core.ask(text, { from })).join('\n')
const idOf = (externalId: string) =>
  core.assembly.runtime.directory.resolve({ channel: 'chat', externalId }).id

describe('an isolated spore serving a command', () => {
  it('runs its mycelium calls as the person who sent it, under their roles', async () => {
    expect(hostKeeper.hostOf(core.germination.byName.get('admin')?.instance)).toBeDefined()
    // The first command a host serves, then a later one: the person is carried from the first.
    expect(await one(`/grant ${idOf('ally')} owner`, 'granter')).toBe(
      'Only a holder of the role "owner" may grant or revoke it.',
    )
    expect(await one(`/grant ${idOf('ally')} granters`, 'granter')).toBe(
      `${idOf('ally')} now holds the role granters.`,
    )
    expect(roleNamesOf(core.store, idOf('ally'))).toEqual(['granters', 'member'])
  }, 60_000)
})
