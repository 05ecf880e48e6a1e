import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { compileCatalog } from '@mycelo/septum'
import { CORE_TRANSLATIONS, loadDomain } from '../../boot/catalogues.ts'
import { loadConfig } from '../../boot/config.ts'
import { createLogging } from '../../boot/log.ts'
import { type Assembly, assembleRuntime } from '../../boot/runtime.ts'
import { type Germination, germinate } from '../../germination/index.ts'
import { createPluginStore, openStore, type Store } from '../../store/index.ts'
import { conversations } from '../../store/schema/index.ts'
import { writeSpore } from '../boot/process.ts'
import { scratchFolder } from '../store/scratch.ts'

const scratch = scratchFolder('boot-contexts')
const lines: string[] = []
let store: Store
let germination: Germination
let assembly: Assembly

beforeAll(async () => {
  const spores = join(scratch.path, 'spores')
  writeSpore(spores, 'chan', {
    'spore.yaml': 'kind: hypha\nname: chan\nseptum: "^1.0"\ncapabilities: [group_membership, reactions]\n',
    'src/index.ts': `
export default {
  create: () => {
    const sent: unknown[] = []
    return {
      sent,
      async connect() {}, async listen() {}, async stop() {},
      async send(conversationId: string, content: unknown) { sent.push([conversationId, content]) },
      async listGroupMembers(groupId: string) { return [{ channel: 'chan', externalId: groupId + '-member' }] },
    }
  },
}
`,
  })
  writeSpore(spores, 'plain', {
    'spore.yaml': 'kind: hypha\nname: plain\nseptum: "^1.0"\ncapabilities: []\n',
    'src/index.ts':
      'export default { create: () => ({ async connect() {}, async listen() {}, async stop() {}, async send() {} }) }\n',
  })
  writeSpore(spores, 'lexicon', {
    'spore.yaml': 'kind: rhiza\nname: lexicon\nseptum: "^1.0"\n',
    'src/index.ts':
      "export default { create: () => ({ api: {}, async start() {}, async stop() {}, async health() { return { state: 'healthy', checkedAt: new Date() } } }) }\n",
    'translations/en.yaml': 'word: a word from the lexicon\n',
  })
  writeSpore(spores, 'greeter', {
    'spore.yaml':
      'kind: enzyme\nname: greeter\nseptum: "^1.0"\nrequires:\n  - rhiza: lexicon\ncommands:\n  - name: hi\n    description: hi.description\n    respond: hello\n',
    'translations/en.yaml': 'hello: Hello {name}\nhi:\n  description: Say hello\n',
    'translations/fr.yaml': 'hello: Bonjour {name}\n',
  })
  writeSpore(spores, 'other', {
    'spore.yaml':
      'kind: enzyme\nname: other\nseptum: "^1.0"\ncommands:\n  - name: x\n    description: x.description\n    respond: x.text\n',
    'translations/en.yaml': 'x:\n  text: private\n',
  })
  store = openStore({ path: join(scratch.path, 'contexts.db') })
  const logging = createLogging({
    level: 'debug',
    pretty: false,
    output: { write: (text) => lines.push(text) },
  })
  germination = await germinate({
    folders: [spores],
    store: createPluginStore(store),
    logger: logging.logger,
  })
  assembly = assembleRuntime({
    config: loadConfig({ env: {}, folder: spores }),
    store,
    plugins: createPluginStore(store),
    logger: logging.logger,
    germination,
    core: loadDomain(join(CORE_TRANSLATIONS, 'core')),
    common: loadDomain(join(CORE_TRANSLATIONS, 'common')),
  })
  // Nothing is started here, so no inhibitor stands between a hypha and the bus.
  assembly.bus.openAdmission()
})

afterAll(() => {
  store.close()
  scratch.remove()
})

const spore = (name: string) => germination.byName.get(name)!
const logged = () => lines.map((line) => JSON.parse(line))

describe('the contexts spores receive', () => {
  it('carries the spore-scoped logger, settings and rhiza access germination built', () => {
    expect(germination.spores.map((s) => [s.name, s.state])).toEqual([
      ['chan', 'live'],
      ['greeter', 'live'],
      ['lexicon', 'live'],
      ['other', 'live'],
      ['plain', 'live'],
    ])
    const ctx = assembly.contexts.enzymeStart(spore('greeter'))
    expect(ctx.has('lexicon')).toBe(true)
    expect(ctx.has('other')).toBe(false)
    ctx.logger.info('started')
    expect(logged().at(-1)).toMatchObject({ spore: 'greeter', msg: 'started' })
  })

  it("renders the spore's own keys, in a locale or the default, and an unknown key as itself", () => {
    const { t } = assembly.contexts.enzymeStart(spore('greeter'))
    expect(t('hello', { name: 'Ada' })).toBe('Hello Ada')
    expect(t('hello', { name: 'Ada' }, 'fr')).toBe('Bonjour Ada')
    expect(t('hello', { name: 'Ada' }, 'fr-CA')).toBe('Bonjour Ada')
    expect(t('hi.description', undefined, 'fr')).toBe('Say hello')
    expect(t('pong')).toBe('pong')
  })

  it('reads common and the rhizas it requires, and refuses any other domain', () => {
    const { t } = assembly.contexts.enzymeStart(spore('greeter'))
    expect(t({ domain: 'lexicon', key: 'word' })).toBe('a word from the lexicon')
    expect(t({ domain: 'common', key: 'config.too_big.number', params: { maximum: 5 } })).toBe(
      'Must be 5 or less',
    )
    expect(() => t({ domain: 'other', key: 'x.text' })).toThrow(
      'spore "greeter" cannot read the "other" domain: only its own, "common" and the rhizas it requires',
    )
    expect(() => t({ domain: 'core', key: 'boot.stopped' })).toThrow('cannot read the "core" domain')
  })

  it('renders the key, and logs an error, when a placeholder is missing', () => {
    const { t } = assembly.contexts.inhibitor(spore('greeter'))
    expect(t('hello')).toBe('hello')
    expect(logged().at(-1)).toMatchObject({ level: 50, spore: 'greeter', key: 'hello' })
  })

  it("renders from a spore's new catalogues once they replace the old, in a t made before", () => {
    const { t } = assembly.contexts.enzymeStart(spore('greeter'))
    const translator = assembly.runtime.translator
    const shipped = translator.catalogsOf('greeter')!
    expect(t('hello', { name: 'Ada' }, 'fr')).toBe('Bonjour Ada')
    expect(t('later')).toBe('later')
    try {
      translator.addDomain(
        'greeter',
        new Map([
          ['en', compileCatalog('en', { hello: 'Hi {name}', later: 'added later' })],
          ['fr', compileCatalog('fr', { hello: 'Salut {name}' })],
        ]),
      )
      expect(t('hello', { name: 'Ada' }, 'fr')).toBe('Salut Ada')
      expect(t('hello', { name: 'Ada' })).toBe('Hi Ada')
      expect(t('later', undefined, 'fr')).toBe('added later')
      expect(t({ domain: 'greeter', key: 'hello', params: { name: 'Bo' } })).toBe('Hi Bo')
    } finally {
      translator.addDomain('greeter', shipped)
    }
    expect(t('hello', { name: 'Ada' })).toBe('Hello Ada')
  })

  it('pushes through the live hypha of the target channel, and refuses an unknown channel', async () => {
    const ctx = assembly.contexts.enzymeStart(spore('greeter'))
    await ctx.push({ channel: 'chan', conversationId: 'c1' }, { text: 'news' })
    expect((spore('chan').instance as { sent: unknown[] }).sent).toEqual([['c1', { text: 'news' }]])
    await expect(ctx.push({ channel: 'nowhere', conversationId: 'c1' }, { text: 'x' })).rejects.toThrow(
      'channel "nowhere" is not live; nothing was sent',
    )
  })

  it("answers a channel's capabilities from its manifest, none for an unknown channel", () => {
    const { capabilitiesOf } = assembly.contexts.enzymeStart(spore('greeter'))
    expect(capabilitiesOf('chan').list()).toEqual(['group_membership', 'reactions'])
    expect(capabilitiesOf('chan').has('reactions')).toBe(true)
    expect(capabilitiesOf('chan').has('threads')).toBe(false)
    expect(capabilitiesOf('nowhere').list()).toEqual([])
  })

  it("answers a conversation's stored locale, or the default", async () => {
    const now = new Date()
    store.db
      .insert(conversations)
      .values({
        channel: 'chan',
        conversationId: 'g1',
        kind: 'group',
        locale: 'fr',
        firstSeen: now,
        lastSeen: now,
      })
      .run()
    const { localeFor } = assembly.contexts.enzymeStart(spore('greeter'))
    expect(await localeFor({ channel: 'chan', conversationId: 'g1' })).toBe('fr')
    expect(await localeFor({ channel: 'chan', conversationId: 'unseen' })).toBe('en')
  })

  it('tells message listeners of every admitted message', async () => {
    const heard: string[] = []
    assembly.contexts.enzymeStart(spore('other')).on('message', (message) => {
      heard.push(message.text)
    })
    await assembly.contexts.hypha(spore('chan')).emit(message('not a command'))
    expect(heard).toEqual(['not a command'])
  })

  it("gives an inhibitor a group's members where the channel can tell, null where it cannot", async () => {
    const ctx = assembly.contexts.inhibitor(spore('other'))
    expect(await ctx.groupMembers('chan', 'g1')).toEqual([{ channel: 'chan', externalId: 'g1-member' }])
    expect(await ctx.groupMembers('plain', 'g1')).toBeNull()
    expect(await ctx.groupMembers('nowhere', 'g1')).toBeNull()
  })

  it('lets an inhibitor require a capability, throwing where the channel lacks it', () => {
    const ctx = assembly.contexts.inhibitor(spore('other'))
    expect(() => ctx.requireCapability('chan', 'group_membership')).not.toThrow()
    expect(() => ctx.requireCapability('plain', 'group_membership')).toThrow(
      'channel "plain" lacks group_membership, so it cannot enforce this rule',
    )
    expect(() => ctx.requireCapability('nowhere', 'reactions')).toThrow(
      'channel "nowhere" is not live, so it cannot enforce a rule needing reactions',
    )
  })

  it("hands a hypha's emitted message to the bus, which drops a malformed one naming the hypha", async () => {
    await assembly.contexts.hypha(spore('chan')).emit({ ...message('x'), messageId: '' })
    expect(logged().at(-1)).toMatchObject({ level: 40, hypha: 'chan', msg: 'message dropped' })
    expect(logged().at(-1).problem).toContain('messageId')
  })
})

function message(text: string) {
  return {
    channel: 'chan',
    conversationId: 'c9',
    messageId: 'm1',
    sender: { channel: 'chan', externalId: 'u7' },
    text,
    attachments: [],
    raw: null,
    receivedAt: new Date(),
  }
}
