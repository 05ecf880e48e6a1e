// The telegram spore inside the real core: grammY against the fake Telegram, the real help spore
// answering through the mycelium, replies arriving at the fake's Bot API; then webhook mode through
// the bot's own HTTP server, behind a reverse proxy as an operator would run it.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { type CoreWith, startCoreWith } from '../../../../core/test/support/boot-core.ts'
import { LONG_DONE, LONG_REPLY_SPORE, LONG_TEXT } from '../../../../core/test/support/long-reply.ts'
import { HELP, HELP_LINE, healthOf, until } from '../../kit/in-core.ts'
import { type FakeTelegram, type Person, startFakeTelegram } from './fake/index.ts'

const TELEGRAM = join(import.meta.dir, '..')

let fake: FakeTelegram
let core: CoreWith

beforeAll(async () => {
  fake = startFakeTelegram()
  core = await startCoreWith({
    sporeFolders: [TELEGRAM, HELP],
    spores: { long: LONG_REPLY_SPORE },
    settings: { telegram: { token: fake.token, apiRoot: fake.apiRoot } },
    roles: { reader: ['help.*', 'long.*'] },
    grants: [{ channel: 'telegram', externalId: String(fake.world.alice.user.id), roles: ['reader'] }],
  })
})

afterAll(async () => {
  await core?.stop()
  await fake?.stop()
})

/** A person writes; answers the texts the bot sent to that chat until one satisfies `last`. */
async function exchange(options: {
  from: Person
  text: string
  inGroup?: boolean
  last: (text: string) => boolean
}): Promise<{ texts: string[]; asked: number; replies: (number | undefined)[] }> {
  const mark = fake.api.sent.entries.length
  const asked = fake.say({
    from: options.from,
    text: options.text,
    ...(options.inGroup ? { inGroup: true } : {}),
  })
  const fresh = (index: number) => index >= mark
  const textOf = (message: (typeof fake.api.sent.entries)[number]) =>
    'text' in message ? String(message.text) : ''
  await fake.api.sent.waitFor(
    (message) =>
      fresh(fake.api.sent.entries.indexOf(message)) &&
      message.chat.id === asked.chat.id &&
      options.last(textOf(message)),
    10_000,
  )
  const sent = fake.api.sent.entries.slice(mark).filter((message) => message.chat.id === asked.chat.id)
  return {
    texts: sent.map(textOf),
    asked: asked.message_id,
    replies: sent.map((m) => m.reply_to_message?.message_id),
  }
}

describe('the telegram spore in the real core', () => {
  it('germinates and connects', () => {
    const lines = core.running.report()
    expect(lines.find((line) => line.name === 'telegram')?.state).toBe('live')
  })

  it('answers /help in a private chat with what that reader may run, and sets their command menu', async () => {
    const { texts } = await exchange({
      from: fake.world.alice,
      text: '/help',
      last: (text) => text.includes('/help'),
    })
    expect(texts).toHaveLength(1)
    expect(texts[0]).toContain('The 2 commands you can run here:')
    expect(texts[0]).toContain(HELP_LINE)
    const chat = fake.world.alice.chat.id
    const deadline = Date.now() + 10_000
    while (!fake.api.commands.has(`chat:${chat}:fr`)) {
      if (Date.now() > deadline) throw new Error('no command menu was set')
      await Bun.sleep(20)
    }
    expect(fake.api.commands.get(`chat:${chat}:en`)).toEqual([
      { command: 'help', description: 'List the commands you can run here, or explain one of them' },
      { command: 'long', description: 'Answer with a very long text' },
    ])
    expect(fake.api.commands.get(`chat:${chat}:`)).toEqual(fake.api.commands.get(`chat:${chat}:en`))
    const french = fake.api.commands.get(`chat:${chat}:fr`)?.find((command) => command.command === 'help')
    expect(french?.description).not.toBe('List the commands you can run here, or explain one of them')
  })

  it('answers /help@bot in the group, quoting the message it answers', async () => {
    const { texts, asked, replies } = await exchange({
      from: fake.world.bob,
      text: '/help@mycelo_test_bot',
      inGroup: true,
      last: (text) => text.includes('/help'),
    })
    expect(texts).toHaveLength(1)
    expect(texts[0]).toContain(HELP_LINE)
    expect(texts[0]).not.toContain('/long')
    expect(replies).toEqual([asked])
  })

  it('delivers a reply longer than 4,096 characters in pieces, in order', async () => {
    const { texts } = await exchange({
      from: fake.world.alice,
      text: '/long',
      last: (text) => text === LONG_DONE,
    })
    expect(texts.at(-1)).toBe(LONG_DONE)
    const pieces = texts.slice(0, -1)
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(4_096)
    expect(pieces.join('\n')).toBe(LONG_TEXT)
  })

  it('answers an edited command once', async () => {
    const mark = fake.api.sent.entries.length
    const typo = fake.say({ from: fake.world.alice, text: '/hlep' })
    await fake.api.sent.waitFor(
      (m) => fake.api.sent.entries.indexOf(m) >= mark && m.chat.id === typo.chat.id,
      10_000,
    )
    const after = fake.api.sent.entries.length
    fake.edit(typo, '/help')
    await fake.api.sent.waitFor(
      (m) => fake.api.sent.entries.indexOf(m) >= after && 'text' in m && String(m.text).includes(HELP_LINE),
      10_000,
    )
    // The same text again (an edit that changes nothing the bot reads) is not answered again.
    fake.edit(typo, '/help')
    const marker = await exchange({
      from: fake.world.alice,
      text: '/help',
      last: (text) => text.includes('/help'),
    })
    const helps = fake.api.sent.entries
      .slice(after)
      .filter((m) => 'text' in m && String(m.text).includes(HELP_LINE))
    expect(helps).toHaveLength(2)
    expect(marker.texts).toHaveLength(1)
  })

  it('holds replies Telegram rate-limits (retry_after), then posts them in the order they were made', async () => {
    const chat = fake.world.alice.chat.id
    const mark = fake.api.calls.entries.length
    fake.api.inject('sendMessage', {
      error_code: 429,
      description: 'Too Many Requests: retry after 1',
      parameters: { retry_after: 1 },
    })
    fake.say({ from: fake.world.alice, text: '/help' })
    fake.say({ from: fake.world.alice, text: '/help help' })
    const sends = () =>
      fake.api.calls.entries
        .slice(mark)
        .filter((call) => call.method === 'sendMessage' && Number(call.params.chat_id) === chat)
    await until(() => sends().filter((call) => call.status === 200).length >= 2)
    expect(sends()[0]?.status).toBe(429)
    const delivered = sends()
      .filter((call) => call.status === 200)
      .map((call) => String(call.params.text))
    expect(delivered).toHaveLength(2)
    expect(delivered[0]).toContain('commands you can run here:')
    expect(delivered[1]).not.toContain('commands you can run here:')
  })

  it('reports a person who blocked the bot once, without sending to them again and again', async () => {
    const { world } = fake
    const mark = fake.api.calls.entries.length
    world.blocked.add(world.alice.user.id)
    try {
      fake.say({ from: world.alice, text: '/help' })
      await fake.api.calls.waitFor(
        (call) => fake.api.calls.entries.indexOf(call) >= mark && call.status === 403,
        10_000,
      )
      // Bob's answer comes after whatever the core would have retried for Alice by then.
      await exchange({ from: world.bob, text: '/help', last: (text) => text.includes('/help') })
      const toAlice = fake.api.calls.entries
        .slice(mark)
        .filter(
          (call) => call.method === 'sendMessage' && Number(call.params.chat_id) === world.alice.chat.id,
        )
      expect(toAlice.map((call) => call.status)).toEqual([403])
      const telegram = await healthOf(core, 'telegram')
      expect(telegram?.state).toBe('degraded')
      expect(telegram?.detail).toContain(String(world.alice.chat.id))
    } finally {
      world.blocked.delete(world.alice.user.id)
    }
  })
})
