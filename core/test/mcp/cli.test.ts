// Agent keys from the command-line companion: a real process over a real SQLite file, the bot stopped.
import { afterAll, describe, expect, it } from 'bun:test'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { agentKeyOf, verifyAgentKey } from '../../store/agent-keys.ts'
import { ensurePrincipal, openStore, type Store } from '../../store/index.ts'
import { respondEnzyme } from '../boot/fixtures.ts'
import { runCli } from '../boot/process.ts'
import { scratchFolder } from '../store/scratch.ts'

/** Each test starts several real processes on a shared machine: generous, never a measure. */
const PROCESS_TIMEOUT = 60_000

const scratch = scratchFolder('cli-agent-keys')
afterAll(() => scratch.remove())

let count = 0
function setUp(): { config: string; database: string } {
  const folder = join(scratch.path, `bot-${++count}`)
  const spores = join(folder, 'spores')
  mkdirSync(spores, { recursive: true })
  respondEnzyme(spores, 'echo')
  const config = join(folder, 'mycelo.yaml')
  writeFileSync(
    config,
    'spores: [spores]\ndatabase: data/mycelo.db\nowner: { channel: chat, userId: boss }\n',
  )
  return { config, database: join(folder, 'data', 'mycelo.db') }
}

function withStore<T>(database: string, work: (store: Store) => T): T {
  const store = openStore({ path: database })
  try {
    return work(store)
  } finally {
    store.close()
  }
}

describe('agent keys from the command line', () => {
  it(
    'creates a key for a person shown once, lists it without its secret, and revokes it',
    async () => {
      const { config, database } = setUp()
      const friend = withStore(
        database,
        (store) => ensurePrincipal(store, { channel: 'chat', externalId: 'friend' }).id,
      )
      const created = await runCli(['agent-key', 'create', 'chat:friend', 'my', 'laptop'], config)
      expect(created.code).toBe(0)
      const secret = /mycelo_ak_\S+/.exec(created.stdout)![0]
      const key = withStore(database, (store) => verifyAgentKey(store, secret))!
      expect(key).toMatchObject({ label: 'my laptop', principalId: friend, revokedAt: null })
      expect(created.stdout).toStartWith(
        `Agent key ${key.id} (my laptop) acts for ${friend}. Its secret, shown this once:\n${secret}\n`,
      )

      expect(await runCli(['agent-key', 'confirm', key.id, 'chat', 'dm-friend'], config)).toMatchObject({
        code: 0,
        stdout: `Agent key ${key.id} now asks its person in chat dm-friend before each operation that needs a confirmation.\n`,
      })
      expect(withStore(database, (store) => agentKeyOf(store, key.id)?.confirmIn)).toEqual({
        channel: 'chat',
        conversationId: 'dm-friend',
      })
      expect((await runCli(['agent-key', 'confirm', key.id, 'client'], config)).code).toBe(0)
      expect(withStore(database, (store) => agentKeyOf(store, key.id)?.confirmIn)).toBeNull()

      const listed = await runCli(['agent-key', 'list'], config)
      expect(listed.code).toBe(0)
      expect(listed.stdout).toStartWith(`${key.id}  my laptop  for ${friend}  created `)
      expect(listed.stdout).toContain('never used')
      expect(listed.stdout).not.toContain(secret.slice(-20))

      expect(await runCli(['agent-key', 'revoke', key.id], config)).toMatchObject({
        code: 0,
        stdout: `Agent key ${key.id} is revoked: it opens nothing from now on.\n`,
      })
      expect(withStore(database, (store) => verifyAgentKey(store, secret))).toBeUndefined()
      expect(withStore(database, (store) => agentKeyOf(store, key.id)?.revokedAt)).toBeInstanceOf(Date)
      expect((await runCli(['agent-key', 'list'], config)).stdout).toContain('  revoked ')
      expect(await runCli(['agent-key', 'revoke', key.id], config)).toMatchObject({
        code: 1,
        stderr: `The agent key "${key.id}" is already revoked.\n`,
      })
    },
    PROCESS_TIMEOUT,
  )

  it(
    'refuses an unknown person and an unknown key, and shows the usage without a label',
    async () => {
      const { config } = setUp()
      const nobody = await runCli(['agent-key', 'create', 'chat:nobody', 'x'], config)
      expect(nobody).toMatchObject({ code: 1, stderr: 'No one is known by the id "chat:nobody".\n' })
      const unknown = await runCli(['agent-key', 'revoke', 'abc'], config)
      expect(unknown).toMatchObject({ code: 1, stderr: 'There is no agent key "abc".\n' })
      const usage = await runCli(['agent-key', 'create', 'chat:boss'], config)
      expect(usage).toMatchObject({
        code: 2,
        stderr:
          'Usage: bun run mycelo agent-key create <principal> <label> | list | revoke <id> | confirm <id> client|<channel> <conversation>\n',
      })
    },
    PROCESS_TIMEOUT,
  )
})
