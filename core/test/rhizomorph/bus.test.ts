import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { conversations, principals } from '../../store/schema/index.ts'
import { chatMessage, startTestCore, type TestCore } from '../support/runtime.ts'
import { FILMS, inhibitor, OTHER } from './spores.ts'

let core: TestCore

beforeAll(async () => {
  core = await startTestCore({
    spores: { films: FILMS, other: OTHER, gate: inhibitor('gate') },
    roles: { viewer: ['films.ping', 'films.greet'] },
    grants: { viewer: ['viewer'] },
  })
})
afterAll(() => core.stop())

const last = () => core.logs().at(-1)

describe('dispatch', () => {
  it("answers a respond: command with its catalogue key, rendered in the reader's locale", async () => {
    expect(await core.ask('/ping')).toEqual(['pong in English'])
  })

  it('has handled a respond: command before emit returns when the channel takes the reply at once', () => {
    const chat = core.germination.byName.get('chat')!.instance as {
      sent: { content: { text?: string } }[]
      say(message: unknown): Promise<void>
    }
    const before = chat.sent.length
    const handled = chat.say(chatMessage('/ping', 'at-once'))
    // No turn waited anywhere on the way: the reply was sent and the message counted handled.
    expect(Bun.peek.status(handled)).toBe('fulfilled')
    expect(chat.sent.slice(before).map((sent) => sent.content.text)).toEqual(['pong in English'])
  })

  it('renders an unknown respond key as itself, without ICU', async () => {
    expect(await core.ask('/bare')).toEqual(['pong'])
  })

  it('renders the key, and logs an error, when a placeholder nobody supplies is missing', async () => {
    expect(await core.ask('/greet')).toEqual(['greet.text'])
    expect(core.logs().find((l) => l.key === 'greet.text')).toMatchObject({ level: 50 })
  })

  it('calls a code: handler with positional args, quotes honoured, the last taking the rest', async () => {
    expect(await core.ask('/films.add "The Matrix" 1999')).toEqual(['Queued The Matrix (1999)'])
    expect(core.logs().find((l) => l.msg === 'add')).toMatchObject({
      spore: 'films',
      args: { title: 'The Matrix', year: '1999' },
      rest: '"The Matrix" 1999',
    })
  })

  it('hands a handler an empty bag when words are missing, never refusing', async () => {
    expect(await core.ask('/films.add')).toEqual(['Usage: /add <title> [year]'])
  })

  it("gives a handler the members of the seed's context, its principal, locale and capabilities", async () => {
    const [reply] = await core.ask('/whoami', { displayName: 'Ada' })
    const seen = JSON.parse(reply!)
    expect(seen.keys).toEqual(
      [
        'capabilities',
        'capabilitiesOf',
        'config',
        'has',
        'locale',
        'localeFor',
        'logger',
        'on',
        'principal',
        'push',
        'reply',
        'rhiza',
        'schedule',
        'storage',
        't',
      ].sort(),
    )
    expect(seen.principal.roles).toEqual(['owner'])
    expect(seen.principal.identities).toEqual([{ channel: 'chat', externalId: 'owner' }])
    expect(seen.locale).toBe('en')
    expect(seen.capabilities).toEqual(['reactions', 'group_membership'])
    expect(seen.command).toBe('whoami')
  })

  it("pushes to another conversation in that conversation's locale", async () => {
    await core.say('hello', { conversationId: 'elsewhere', from: 'someone' })
    core.assembly.runtime.conversations.setLocale('chat', 'elsewhere', 'fr')
    const before = core.sent.length
    await core.say('/tell elsewhere see you at 8')
    expect(core.sent.slice(before)).toEqual([
      { conversationId: 'elsewhere', content: { text: 'Dit : see you at 8' } },
    ])
  })

  it('answers a handler that throws with a short failure line and logs it with the spore name', async () => {
    expect(await core.ask('/boom')).toEqual(['Sorry, /boom failed. The operator can see why in the log.'])
    expect(core.logs().find((l) => l.msg === 'a command handler failed')).toMatchObject({
      spore: 'films',
      command: 'boom',
      error: 'the projector caught fire',
    })
    const { stack } = core.logs().find((l) => l.msg === 'a command handler failed') as { stack: string }
    // The stack leads to the line that threw, in the spore's own file.
    expect(stack).toStartWith('Error: the projector caught fire\n')
    expect(stack).toMatch(/at explode \(.*films\/src\/index\.ts:12:\d+\)/)
  })

  it('leaves a message that is not a command unanswered', async () => {
    expect(await core.ask('just chatting')).toEqual([])
  })
})

describe('routing', () => {
  it("answers an unknown command in the reader's locale", async () => {
    expect(await core.ask('/nope')).toEqual([
      "I don't know the command /nope. Try /help to see what you can run.",
    ])
  })

  it('suggests the nearest command the reader may run when the name looks like a typo', async () => {
    const suggests = (command: string, suggestion: string) =>
      `I don't know the command ${command}. Did you mean ${suggestion}? Try /help to see what you can run.`
    expect(await core.ask('/pnig')).toEqual([suggests('/pnig', '/ping')])
    expect(await core.ask('/whoamu')).toEqual([suggests('/whoamu', '/whoami')])
    // A bare name two spores share is suggested qualified, as it must be typed.
    expect(await core.ask('/ad')).toEqual([suggests('/ad', '/films.add')])
    expect(await core.ask('/other.ad')).toEqual([suggests('/other.ad', '/other.add')])
    // A command the reader's roles do not cover is never offered.
    expect(await core.ask('/tel', { from: 'viewer' })).toEqual([
      "I don't know the command /tel. Try /help to see what you can run.",
    ])
    expect(await core.ask('/tel')).toEqual([suggests('/tel', '/tell')])
    // Nothing close: no guess.
    expect(await core.ask('/projector')).toEqual([
      "I don't know the command /projector. Try /help to see what you can run.",
    ])
  })

  it("words the suggestion in the reader's locale", async () => {
    await core.say('hello', { conversationId: 'salon' })
    core.assembly.runtime.conversations.setLocale('chat', 'salon', 'fr')
    expect(await core.ask('/pign', { conversationId: 'salon' })).toEqual([
      'Je ne connais pas la commande /pign. Vouliez-vous dire /ping ? Essayez /help pour voir ce que vous pouvez lancer.',
    ])
  })

  it('answers a bare name two spores share with the qualified choices, and runs a qualified one', async () => {
    expect(await core.ask('/add Alien')).toEqual([
      'Several spores offer /add; say which one: /films.add, /other.add',
    ])
    expect(await core.ask('/other.add')).toEqual(['other.added'])
  })

  it("refuses a command the reader's roles do not cover", async () => {
    expect(await core.ask('/films.add Alien', { from: 'viewer' })).toEqual([
      'You are not allowed to run /films.add.',
    ])
    expect(await core.ask('/ping', { from: 'viewer' })).toEqual(['pong in English'])
  })

  it('refuses a command whose capability the channel lacks; one with none works everywhere', async () => {
    expect(await core.ask('/thread')).toEqual(['/thread cannot run on chat: it needs threads.'])
    expect(await core.ask('/react')).toEqual(['pong in English'])
  })

  it('applies a context rule to the very next message', async () => {
    core.assembly.runtime.restrictions.setContextRule('films.ping', ['group'])
    expect(await core.ask('/ping')).toEqual(['/ping only works in a group.'])
    expect(await core.ask('/ping', { group: { id: 'g1', name: 'Film club' } })).toEqual(['pong in English'])
    core.assembly.runtime.restrictions.clearContextRule('films.ping')
    expect(await core.ask('/ping')).toEqual(['pong in English'])
  })
})

describe('people, conversations and locale', () => {
  it('creates a principal with the default role at first contact', async () => {
    expect(await core.ask('/films.add x', { from: 'newcomer', displayName: 'Newt' })).toEqual([
      'You are not allowed to run /films.add.',
    ])
    const principal = core.assembly.runtime.directory.resolve({ channel: 'chat', externalId: 'newcomer' })
    expect(principal.principal).toMatchObject({ roles: ['member'], displayName: 'Newt' })
    expect(core.logs().find((l) => l.msg === 'first contact: new principal')).toMatchObject({
      role: 'member',
    })
  })

  it('records a conversation after admission, dm or group with its label, and never its text', async () => {
    await core.say('/ping', { group: { id: 'g2', name: 'Book club' }, from: 'reader' })
    const row = core.store.db.select().from(conversations).where(eq(conversations.conversationId, 'g2')).get()
    expect(row).toMatchObject({ channel: 'chat', kind: 'group', label: 'Book club' })
    expect(JSON.stringify(row)).not.toContain('/ping')
  })

  it('resolves the locale from the conversation, then the principal, then the default', async () => {
    const id = core.assembly.runtime.directory.resolve({ channel: 'chat', externalId: 'owner' }).id
    core.store.db.update(principals).set({ locale: 'fr' }).where(eq(principals.id, id)).run()
    core.assembly.runtime.directory.invalidate()
    expect(await core.ask('/ping')).toEqual(['pong en français'])
    expect(await core.ask('/nope')).toEqual([
      'Je ne connais pas la commande /nope. Essayez /help pour voir ce que vous pouvez lancer.',
    ])
    await core.say('/ping', { conversationId: 'lang-room' })
    core.assembly.runtime.conversations.setLocale('chat', 'lang-room', 'en')
    expect(await core.ask('/ping', { conversationId: 'lang-room' })).toEqual(['pong in English'])
    core.store.db.update(principals).set({ locale: null }).where(eq(principals.id, id)).run()
    core.assembly.runtime.directory.invalidate()
  })

  it("cascades a key missing from the reader's locale to the default, warning once per key", async () => {
    const id = core.assembly.runtime.directory.resolve({ channel: 'chat', externalId: 'owner' }).id
    core.store.db.update(principals).set({ locale: 'fr' }).where(eq(principals.id, id)).run()
    core.assembly.runtime.directory.invalidate()
    expect(await core.ask('/films.add Alien 1979')).toEqual(['Alien (1979) est en file'])
    const films = core.germination.byName.get('films')!
    const t = core.assembly.contexts.handler(
      films,
      {
        message: {} as never,
        principal: core.assembly.runtime.directory.resolve({ channel: 'chat', externalId: 'owner' }),
        locale: 'fr',
      },
      core.assembly.runtime.hyphae.capabilitiesOf('chat'),
    ).t
    expect(t('only.english')).toBe('only in English')
    expect(t('only.english')).toBe('only in English')
    const warnings = core.logs().filter((l) => l.msg === 'translation missing; using the default locale')
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatchObject({ domain: 'films', key: 'only.english', locale: 'fr' })
    core.store.db.update(principals).set({ locale: null }).where(eq(principals.id, id)).run()
    core.assembly.runtime.directory.invalidate()
  })
})

describe('normalising what a hypha emits', () => {
  const chat = () => core.assembly.contexts.hypha(core.germination.byName.get('chat')!)
  const message = (overrides: Record<string, unknown>) => ({
    channel: 'chat',
    conversationId: 'n1',
    messageId: 'n1',
    sender: { channel: 'chat', externalId: 'owner' },
    text: '/ping',
    attachments: [],
    raw: null,
    receivedAt: new Date(),
    ...overrides,
  })

  it('drops a malformed message with a warning naming the hypha, and never throws into it', async () => {
    const before = core.sent.length
    await expect(chat().emit(message({ sender: { channel: 'chat' } }) as never)).resolves.toBeUndefined()
    await expect(chat().emit(null as never)).resolves.toBeUndefined()
    expect(core.sent.length).toBe(before)
    expect(last()).toMatchObject({ level: 40, msg: 'message dropped', hypha: 'chat' })
  })

  it('refuses a message that claims another channel', async () => {
    await chat().emit(
      message({ channel: 'discord', sender: { channel: 'discord', externalId: 'x' } }) as never,
    )
    expect(String(last()?.problem)).toContain('claims channel "discord" but came from "chat"')
  })

  it('refuses a message over the length limit with a log line, rather than truncating it', async () => {
    const before = core.sent.length
    await chat().emit(message({ text: `/ping ${'x'.repeat(5000)}` }) as never)
    expect(core.sent.length).toBe(before)
    expect(String(last()?.problem)).toContain('over the limit of 4000')
  })
})
