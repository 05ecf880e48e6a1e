// What `await ctx.reply` promises inline, held isolated: a handler's replies cross with its answer
// or once its turn ends, with no round trip of their own (core/hosts/outgoing.ts, markAhead), and
// still arrive in order, before the command counts as handled, before slow work that follows them,
// after the handler ended, and ahead of a deadline. Every case runs the same enzyme inline and in
// its host, against a running bot with real spores on disk.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { CHAT_HYPHA, startTestCore, type TestCore } from '../support/runtime.ts'
import { answersAgain, FAULT_CONFIG, faultyEnzyme } from './fault-spores.ts'

/**
 * The test channel, except that it refuses for good any text starting with "refuse", and for now
 * (so the outbox keeps it and tries again later) any starting with "hold".
 */
const SEND = 'async send(conversationId, content) {'
const PICKY_CHAT = {
  ...CHAT_HYPHA,
  'src/index.ts': CHAT_HYPHA['src/index.ts'].replace(
    SEND,
    `${SEND}
        if (content.text?.startsWith('refuse')) throw new Error('the room refuses it')
        if (content.text?.startsWith('hold')) throw Object.assign(new Error('not now'), { temporary: true })
       `,
  ),
}
if (!PICKY_CHAT['src/index.ts'].includes('the room refuses it'))
  throw new Error('the test channel has no send to wrap')

const HANDLERS = {
  // Not awaited, awaited, around a call into the core and a log line: in the order made.
  order: `ctx.reply({ text: '1' })
await ctx.reply({ text: '2' })
await ctx.localeFor({ channel: 'chat', conversationId: 'elsewhere' })
void ctx.reply({ text: '3' })
ctx.logger.info('between')
await ctx.reply({ text: '4' })`,
  quick: `ctx.reply({ text: 'quick' })`,
  // An awaited reply is held until the handler waits on something: then it goes, before the work.
  slow: `await ctx.reply({ text: 'first' })
await Bun.sleep(500)
await ctx.reply({ text: 'second' })`,
  // A reply made once the handler has ended; its refusal reaches the code that made it.
  late: `setTimeout(async () => {
  await ctx.reply({ text: 'later' })
  try { await ctx.reply({ text: 'refuse later' }) } catch (error) { await ctx.reply({ text: 'caught later: ' + error.message }) }
}, 50)`,
  overdue: `await ctx.reply({ text: 'started' })
await Bun.sleep(4000)`,
  refused: `await ctx.reply({ text: 'refuse this' })
await ctx.reply({ text: 'never reached inline' })`,
  caught: `try { await ctx.reply({ text: 'anyone there?' }) } catch (error) { ctx.logger.warn('reply refused', { error: error.message }) }`,
}

/** An enzyme with one command per handler above, each named `<name>-<handler>`. */
function talker(name: string): Record<string, string> {
  const commands = Object.keys(HANDLERS)
    .map((handler) => `  - { name: ${name}-${handler}, description: ${handler}, code: ${handler} }`)
    .join('\n')
  const handlers = Object.entries(HANDLERS)
    .map(([handler, body]) => `      async ${handler}(invocation, ctx) {\n${body}\n      },`)
    .join('\n')
  return {
    'spore.yaml': `kind: enzyme\nname: ${name}\nseptum: "^1.0"\ncommands:\n${commands}\n`,
    'src/index.ts': `export default {\n  create: () => ({\n    handlers: {\n${handlers}\n    },\n  }),\n}\n`,
  }
}

let core: TestCore
beforeAll(async () => {
  core = await startTestCore({
    spores: {
      chat: PICKY_CHAT,
      hosted: talker('hosted'),
      inline: talker('inline'),
      // Isolated only: inline, a handler that never yields would hold the whole bot.
      spinner: {
        ...faultyEnzyme('spinner', "await ctx.reply({ text: 'started' }); if (once()) while (true) {}"),
        'fault-once': 'spin once',
      },
    },
    config: FAULT_CONFIG.replace('spores: { chat: inline }', 'spores: { chat: inline, inline: inline }'),
  })
})
afterAll(() => core?.stop())

const WHERE = ['inline', 'hosted'] as const

/** Texts sent to a conversation. */
function sentTo(conversationId: string): string[] {
  return core.sent
    .filter((sent) => sent.conversationId === conversationId)
    .map((sent) => sent.content.text ?? '')
}

async function until(check: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms
  while (!check() && Date.now() < end) await Bun.sleep(10)
}

describe("an isolated handler's replies", () => {
  it('run where the policy says', () => {
    expect(core.report().find((row) => row.name === 'hosted')?.isolation).toBe('worker')
    expect(core.report().find((row) => row.name === 'inline')?.isolation).toBe('inline')
  })

  it('arrive in the order made, awaited or not, around calls into the core, before the command is handled', async () => {
    for (const where of WHERE) {
      await core.say(`/${where}-order`, { conversationId: `order-${where}` })
      expect({ where, sent: sentTo(`order-${where}`) }).toEqual({ where, sent: ['1', '2', '3', '4'] })
      await core.say(`/${where}-quick`, { conversationId: `quick-${where}` })
      expect({ where, sent: sentTo(`quick-${where}`) }).toEqual({ where, sent: ['quick'] })
    }
  })

  it('go out before the slow work that follows an awaited one, while the handler still runs', async () => {
    for (const where of WHERE) {
      const from = `slow-${where}`
      let handled = false
      const asked = core.say(`/${where}-slow`, { conversationId: from }).then(() => {
        handled = true
      })
      await until(() => sentTo(from).length > 0, 400)
      expect({ where, sent: sentTo(from), handled }).toEqual({ where, sent: ['first'], handled: false })
      await asked
      expect({ where, sent: sentTo(from) }).toEqual({ where, sent: ['first', 'second'] })
    }
  })

  it('made after the handler ended are sent, and a refusal reaches the code that made them', async () => {
    for (const where of WHERE) {
      const from = `late-${where}`
      await core.say(`/${where}-late`, { conversationId: from })
      await until(() => sentTo(from).length >= 2, 2_000)
      expect({ where, sent: sentTo(from) }).toEqual({
        where,
        sent: ['later', 'caught later: the room refuses it'],
      })
    }
  })

  it('made before a deadline passes are sent, then the person hears it took too long', async () => {
    for (const where of WHERE) {
      const from = `overdue-${where}`
      await core.say(`/${where}-overdue`, { conversationId: from })
      await until(() => sentTo(from).length >= 2, 4_000)
      expect({ where, sent: sentTo(from) }).toEqual({
        where,
        sent: [
          'started',
          `Sorry, /${where}-overdue took too long and was given up on. The operator can see why in the log.`,
        ],
      })
    }
  })

  it('refused by the channel fail the handler, logged with the refusal, and the person hears it failed', async () => {
    for (const where of WHERE) {
      const from = `refused-${where}`
      await core.say(`/${where}-refused`, { conversationId: from })
      const failed = core
        .logs()
        .filter((line) => line.msg === 'a command handler failed' && line.command === `${where}-refused`)
      expect({ where, failed: failed.map((line) => line.error) }).toEqual({
        where,
        failed: ['the room refuses it'],
      })
      const answer = `Sorry, /${where}-refused failed. The operator can see why in the log.`
      if (where === 'inline') expect(sentTo(from)).toEqual([answer])
      else {
        // Isolated, the handler went on at once: its next reply went with its answer, before the
        // channel's refusal of the first failed it (docs/operating.md says so).
        await until(() => sentTo(from).length >= 2, 1_000)
        expect(sentTo(from).toSorted()).toEqual(['never reached inline', answer].toSorted())
      }
    }
  })

  it('made before work that never yields reach the person, then the watchdog ends the host and they hear it failed', async () => {
    const from = 'spinner'
    await core.say('/spinner', { conversationId: from })
    await until(() => sentTo(from).length > 1, 5_000)
    // Held replies are posted before the handler's code goes on, so a loop after them cannot keep them.
    expect(sentTo(from)).toEqual([
      'started',
      expect.stringMatching(/^Sorry, \/spinner (failed|took too long)/),
    ])
    expect(await answersAgain(core, 'spinner', 'owner')).toBe(true)
  })
})

describe('a reply the outbox would refuse when the command arrives', () => {
  let full: TestCore
  beforeAll(async () => {
    full = await startTestCore({
      spores: { chat: PICKY_CHAT, hosted: talker('hosted'), inline: talker('inline') },
      config: `${FAULT_CONFIG.replace('spores: { chat: inline }', 'spores: { chat: inline, inline: inline }')}outbox: { limit: 2 }\n`,
    })
  })
  afterAll(() => full?.stop())

  it('is an ordinary call: its refusal reaches the handler, which may catch it, as inline', async () => {
    // Two messages the channel cannot take for now fill its outbox.
    const { hyphae, outbox } = full.assembly.runtime
    await hyphae.send({ channel: 'chat', conversationId: 'held' }, { text: 'hold 1' })
    await hyphae.send({ channel: 'chat', conversationId: 'held' }, { text: 'hold 2' })
    expect(outbox.accepts('chat')).toBe(false)
    for (const where of WHERE) {
      await full.say(`/${where}-caught`, { conversationId: `caught-${where}` })
      const caught = full.logs().filter((line) => line.msg === 'reply refused' && line.spore === where)
      expect({ where, caught: caught.map((line) => line.error) }).toEqual({
        where,
        caught: ['channel "chat" already has 2 messages waiting to be sent; nothing was sent'],
      })
      expect(full.logs().filter((line) => line.msg === 'a command handler failed')).toEqual([])
    }
  })
})
