// The bot's command menus (setMyCommands) in each language the catalogues speak: everyone's, set
// when the bot starts listening (what a newcomer may run, in private chats and in groups, one per
// language_code and one without), and each person's in their private chat once they wrote.
import { afterAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import type { CommandScope } from '@mycelo/septum'
import { type CoreWith, startCoreWith } from '../../../../core/test/support/boot-core.ts'
import { HELP } from '../../kit/in-core.ts'
import { type FakeTelegram, startFakeTelegram } from './fake/index.ts'
import { connectedRig } from './harness.ts'

const TELEGRAM = join(import.meta.dir, '..')

/** Waits until the fake holds a menu under each key (`<scope>:<language_code>`). */
async function menus(fake: FakeTelegram, keys: readonly string[]): Promise<void> {
  const deadline = Date.now() + 10_000
  while (!keys.every((key) => fake.api.commands.has(key))) {
    if (Date.now() > deadline)
      throw new Error(`no menu under ${keys.filter((k) => !fake.api.commands.has(k))}`)
    await Bun.sleep(20)
  }
}

describe('command menus, against the fake', () => {
  const asked: { locale: string; where?: CommandScope }[] = []
  const describedIn = (locale: string) => (locale === 'fr' ? 'Liste les commandes' : 'Lists the commands')
  const mycelium = {
    locales: async () => ['fr', 'en', 'pt-BR'],
    availableToNewcomers: async (locale: string, where?: CommandScope) => {
      asked.push({ locale, ...(where === undefined ? {} : { where }) })
      const listed = [{ name: 'help', description: describedIn(locale) }]
      return where?.kind === 'group' ? listed : [...listed, { name: 'start', description: 'Start' }]
    },
    findByIdentity: async () => ({ id: 'p1' }),
    available: async (_principal: unknown, locale: string) => [
      { name: 'help', description: describedIn(locale) },
      { name: 'movies', description: locale === 'fr' ? 'Des films' : 'Movies' },
    ],
  }

  it('sets everyone’s menu at start in each catalogue language Telegram can name, English also for any other', async () => {
    const rig = await connectedRig({ mycelium })
    try {
      const keys = ['all_private_chats', 'all_group_chats'].flatMap((scope) =>
        ['en', 'fr', ''].map((code) => `${scope}:${code}`),
      )
      await menus(rig.fake, keys)
      const { commands } = rig.fake.api
      expect(commands.get('all_private_chats:fr')).toEqual([
        { command: 'help', description: 'Liste les commandes' },
        { command: 'start', description: 'Start' },
      ])
      expect(commands.get('all_private_chats:en')?.[0]?.description).toBe('Lists the commands')
      expect(commands.get('all_private_chats:')).toEqual(commands.get('all_private_chats:en'))
      expect(commands.get('all_group_chats:fr')).toEqual([
        { command: 'help', description: 'Liste les commandes' },
      ])
      // pt-BR is no code Telegram takes: no menu is set for it.
      expect([...commands.keys()].filter((key) => key.includes('pt'))).toEqual([])
      expect(asked.map((a) => a.where)).toContainEqual({ channel: 'telegram', kind: 'group' })
    } finally {
      await rig.stop()
    }
  })

  it('sets a person’s own menu in their private chat in each language once they wrote', async () => {
    const rig = await connectedRig({ mycelium })
    try {
      const { world } = rig.fake
      const said = rig.fake.say({ from: world.alice, text: 'hello' })
      await rig.emitted.waitFor((m) => m.messageId === String(said.message_id))
      const chat = `chat:${world.alice.chat.id}`
      await menus(rig.fake, [`${chat}:en`, `${chat}:fr`, `${chat}:`])
      expect(rig.fake.api.commands.get(`${chat}:fr`)).toEqual([
        { command: 'help', description: 'Liste les commandes' },
        { command: 'movies', description: 'Des films' },
      ])
    } finally {
      await rig.stop()
    }
  })
})

describe('command menus in the real core', () => {
  let fake: FakeTelegram | undefined
  let core: CoreWith | undefined
  afterAll(async () => {
    await core?.stop()
    await fake?.stop()
  })

  it('sets everyone’s menu from the newcomer role’s commands, described from the catalogues in each language', async () => {
    fake = startFakeTelegram()
    core = await startCoreWith({
      sporeFolders: [TELEGRAM, HELP],
      settings: { telegram: { token: fake.token, apiRoot: fake.apiRoot } },
      // The default role: what anyone the bot meets may run.
      roles: { member: ['help.*'] },
    })
    await menus(fake, [
      'all_private_chats:en',
      'all_private_chats:fr',
      'all_private_chats:',
      'all_group_chats:fr',
    ])
    const english = fake.api.commands.get('all_private_chats:en')
    expect(english).toEqual([
      { command: 'help', description: 'List the commands you can run here, or explain one of them' },
    ])
    const french = fake.api.commands.get('all_private_chats:fr')
    expect(french?.map((command) => command.command)).toEqual(['help'])
    expect(french?.[0]?.description).not.toBe(english?.[0]?.description)
    expect(fake.api.commands.get('all_private_chats:')).toEqual(english)
  })
})
