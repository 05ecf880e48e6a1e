// A spore written the way upstream Mycelo's spores are, run through the real message path: it
// hands available() the principal, reads CommandInfo.name and { pattern, where }, calls
// setInhibitorChannels, and learns of a refusal from restrictions and locales by catching it.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { garden } from './garden.ts'
import { type Bot, dmWith, probeEnzyme, startBot } from './harness.ts'

const CLASSIC = probeEnzyme('classic', {
  scopes: ['commands.read', 'restrictions.manage', 'locale.manage'],
  manifest: {
    commands: [
      { name: 'mine', description: 'command.mine.description', code: 'mine' },
      {
        name: 'only',
        description: 'command.only.description',
        code: 'only',
        args: [
          { name: 'pattern', description: 'arg.pattern.description', required: true },
          { name: 'where', description: 'arg.where.description', required: true },
        ],
      },
      {
        name: 'watch',
        description: 'command.watch.description',
        code: 'watch',
        args: [
          { name: 'inhibitor', description: 'arg.inhibitor.description', required: true },
          { name: 'channels', description: 'arg.channels.description', required: false },
        ],
      },
      {
        name: 'speak',
        description: 'command.speak.description',
        code: 'speak',
        args: [{ name: 'locale', description: 'arg.locale.description', required: true }],
      },
    ],
  },
  preamble: `import { isRefusalError } from '@mycelo/septum'
// Awaits a call, answering what it did or, when the core refused, why.
async function settle(ctx, call, done) {
  try {
    const value = await call()
    await ctx.reply({ text: await done(value) })
  } catch (error) {
    if (!isRefusalError(error)) throw error
    await ctx.reply({ text: 'refused: ' + ctx.t(error.refusal) })
  }
}
`,
  handlers: `async mine(invocation, ctx) {
      const commands = await ctx.rhiza('mycelium').available(ctx.principal, ctx.locale)
      await ctx.reply({ text: commands.filter((c) => c.plugin === 'classic').map((c) => c.name).join(' ') })
    },
    async only(invocation, ctx) {
      const mycelium = ctx.rhiza('mycelium')
      await settle(ctx, () => mycelium.setContextRule(invocation.args.pattern, invocation.args.where), async () =>
        (await mycelium.listContextRules()).map((rule) => rule.pattern + ' in ' + rule.where).join(', '))
    },
    async watch(invocation, ctx) {
      const mycelium = ctx.rhiza('mycelium')
      const channels = (invocation.args.channels ?? '').split(',').filter((c) => c !== '')
      await settle(ctx, () => mycelium.setInhibitorChannels(invocation.args.inhibitor, channels), async () =>
        'watches ' + ((await mycelium.inhibitorChannels(invocation.args.inhibitor)).join(',') || 'everything'))
    },
    async speak(invocation, ctx) {
      await settle(ctx, () => ctx.rhiza('mycelium').setPrincipalLocale(ctx.principal.id, invocation.args.locale),
        () => 'speaking ' + invocation.args.locale)
    },`,
})

let bot: Bot

beforeAll(async () => {
  const options = garden()
  bot = await startBot({ ...options, spores: { ...options.spores, classic: CLASSIC } })
})

afterAll(async () => {
  await bot.stop()
})

/** The owner asks in their dm, and the test reads the answer. */
async function ask(text: string): Promise<string[]> {
  await bot.emit('chat', text)
  return bot.takeSent('chat', dmWith('boss'))
}

describe('a spore written for upstream Mycelo', () => {
  it('lists its reader’s commands by bare name, handing available() the principal itself', async () => {
    expect(await ask('/classic.mine')).toEqual(['mine only speak watch'])
  })

  it('sets a context rule with one kind, and reads the rules back as pattern and where', async () => {
    expect(await ask('/classic.only films.about group')).toEqual(['films.about in group'])
    expect(await ask('/films.about')).toEqual(['/films.about only works in a group.'])
    expect(await ask('/classic.only films.nope dm')).toEqual([
      'refused: No command is named "films.nope"; name it as spore.command.',
    ])
    expect(await ask('/classic.only films.about dm')).toEqual(['films.about in dm'])
    expect(await ask('/films.about')).toEqual(['Films keeps your watch list.'])
  })

  it('confines an inhibitor with setInhibitorChannels, and learns of a misspelt one by catching', async () => {
    expect(await ask('/classic.watch gate rich')).toEqual(['watches rich'])
    expect(await ask('/classic.watch gate')).toEqual(['watches everything'])
    expect(await ask('/classic.watch gait chat')).toEqual([
      'refused: No inhibitor named "gait" is installed.',
    ])
  })

  it('learns of a refused language by catching, in the reader’s own language', async () => {
    expect(await ask('/classic.speak de')).toEqual([
      'refused: The language "de" is not available; choose one of en, fr.',
    ])
    expect(await ask('/classic.speak fr')).toEqual(['speaking fr'])
    expect(await ask('/classic.speak de')).toEqual([
      'refused: La langue «\u00a0de\u00a0» n’est pas disponible\u00a0; choisissez parmi en, fr.',
    ])
  })
})
