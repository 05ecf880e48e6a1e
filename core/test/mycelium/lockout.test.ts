// The lockout rule through the real bus: the admin spore as shipped, over probe channels.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type { Mycelium } from '@mycelo/septum'
import { eq } from 'drizzle-orm'
import { actingAs } from '../../mycelium/actor.ts'
import { principalIdOf } from '../../store/principals.ts'
import { channelIdentities } from '../../store/schema/index.ts'
import type { SporeFiles } from '../germination/fixtures.ts'
import { type Bot, dmWith, probeEnzyme, probeHypha, probeRhiza, shippedSpore, startBot } from './harness.ts'

/** A channel with groups, whose members it can tell. */
function groupChannel(name: string): SporeFiles {
  const probe = probeHypha(name, ['group_membership'])
  const source = probe.files?.['src/index.ts'] ?? ''
  const files = {
    'src/index.ts': source.replace(
      'async stop() {},',
      'async stop() {}, async listGroupMembers() { return [] },',
    ),
  }
  return { manifest: probe.manifest, files }
}

/** An enzyme that needs the vault rhiza and switches plugins off with `/off <plugin>`. */
const KEEPER = probeEnzyme('keeper', {
  manifest: {
    requires: [{ rhiza: 'mycelium', scopes: ['plugins.toggle'] }, { rhiza: 'vault' }],
    commands: [
      {
        name: 'off',
        description: 'command.off.description',
        code: 'off',
        args: [{ name: 'plugin', description: 'arg.plugin.description', required: true }],
      },
    ],
  },
  handlers: `async off(invocation, ctx) {
    const outcome = await ctx.rhiza('mycelium').disable(invocation.args.plugin)
    await ctx.reply({ text: outcome.ok ? 'switched off' : ctx.t(outcome.refusal) })
  },`,
})

let bot: Bot
let owner: string

beforeAll(async () => {
  bot = await startBot({
    spores: {
      // Like the console: direct messages only.
      desk: probeHypha('desk', [], { settings: 'z.object({ user: z.string().optional() })' }),
      crowd: groupChannel('crowd'),
      yard: probeHypha('yard'),
      // Enforcing and dormant: it refuses every message on the channels it judges.
      wall: {
        manifest: { kind: 'inhibitor', name: 'wall', septum: '^1.0', enforcing: true },
        files: { 'src/index.ts': "throw new Error('the wall fell')\n" },
      },
      admin: shippedSpore('admin'),
      vault: probeRhiza('vault'),
      keeper: KEEPER,
    },
    config: { owner: { channel: 'desk', userId: 'boss' } },
  })
  owner = principalIdOf(bot.store, { channel: 'desk', externalId: 'boss' })!
  bot.runtime.restrictions.confine('wall', ['yard'])
})

/** Makes the owner known on another channel too, or no longer. */
function known(channel: string, on: boolean): void {
  if (on) {
    bot.store.db.insert(channelIdentities).values({ principalId: owner, channel, externalId: 'boss' }).run()
  } else {
    bot.store.db.delete(channelIdentities).where(eq(channelIdentities.channel, channel)).run()
  }
  bot.runtime.directory.invalidate()
}
afterAll(() => bot.stop())

/** The owner types on desk, in a direct message; answers what came back. */
async function onDesk(text: string): Promise<string> {
  await bot.emit('desk', text)
  return bot.takeSent('desk', dmWith('boss')).join('\n')
}

const enabled = (name: string) => bot.plugins.installOf(name)?.enabled

describe('a principal reaching the bot on one direct-message channel', () => {
  it('may not switch off the spore they command through when no other spore can switch it back on', async () => {
    // keeper also holds plugins.toggle and is in reach: it is a way back.
    expect(await onDesk('/disable admin')).toBe('admin is disabled and stopped.')
    // Stopped at once, so its commands are gone: keeper's surface is the way back.
    expect(await onDesk('/enable admin')).toStartWith("I don't know the command /enable.")
    expect(await bot.surface<Mycelium<'plugins.toggle'>>('keeper').enable('admin')).toEqual({ ok: true })
    expect(await onDesk('/disable keeper')).toBe('keeper is disabled and stopped.')
    expect(await onDesk('/disable admin')).toBe(
      'Refused: you manage the bot through "admin", and switching off "admin" would leave it unable to run, so you could not undo it. Make this change from the command line.',
    )
    expect(enabled('admin')).toBe(true)
    expect(await onDesk('/enable keeper')).toBe('keeper is enabled and live.')
  })

  it('may not switch off a rhiza the spore they command through cannot live without', async () => {
    expect(await onDesk('/off admin')).toBe('switched off')
    expect(await onDesk('/off vault')).toBe(
      'Refused: you manage the bot through "keeper", and switching off "vault" would leave "keeper", which needs it, unable to run, so you could not undo it. Make this change from the command line.',
    )
    expect(enabled('vault')).toBe(true)
    expect(await onDesk('/enable admin')).toStartWith("I don't know the command /enable.")
    expect(await bot.surface<Mycelium<'plugins.toggle'>>('keeper').enable('admin')).toEqual({ ok: true })
  })

  it('may not switch off, nor reconfigure, the only channel they reach the bot on', async () => {
    expect(await onDesk('/disable desk')).toBe(
      'Refused: switching off "desk" would leave you no channel to reach "admin" on, so you could not undo it. Make this change from another channel or from the command line.',
    )
    expect(enabled('desk')).toBe(true)
    // The channel's settings decide who one is on it (the console's user) and whether it connects.
    expect(await onDesk('/set desk user someone-else')).toBe(
      'Refused: changing the settings of "desk" would leave you no channel to reach "admin" on, so you could not undo it. Make this change from another channel or from the command line.',
    )
    expect(bot.plugins.settingsOf('desk')).toEqual({})
    bot.plugins.setSetting('desk', 'user', 'boss')
    expect(await onDesk('/unset desk user')).toStartWith('Refused: changing the settings of "desk"')
    expect(bot.plugins.settingsOf('desk')).toEqual({ user: 'boss' })
  })

  it('may not confine the command that changes rules to groups, where they never are', async () => {
    expect(await onDesk('/rule admin.rule group')).toBe(
      'Refused: you reach the bot only in direct messages, so with this rule you could no longer run "admin.rule" anywhere, nor change the rule back.',
    )
    expect(bot.runtime.restrictions.allowedKinds('admin.rule')).toBeUndefined()
    expect(await onDesk('/rule admin.rule dm')).toBe('admin.rule now runs in direct messages only.')
    expect(await onDesk('/rule admin.rule clear')).toBe('admin.rule runs everywhere again.')
  })

  it('says why in their own language', async () => {
    await onDesk('/lang fr')
    expect(await onDesk('/disable desk')).toBe(
      'Refusé\u00a0: désactiver «\u00a0desk\u00a0» ne vous laisserait aucun canal pour joindre «\u00a0admin\u00a0»\u00a0: vous ne pourriez plus revenir en arrière. Faites ce changement depuis un autre canal ou en ligne de commande.',
    )
    await onDesk('/lang en')
  })

  it('counts no channel a dormant enforcing inhibitor walls off as a way in, nor walls off their own', async () => {
    expect(bot.germination.byName.get('wall')?.state).toBe('dormant')
    known('yard', true)
    expect(await onDesk('/disable desk')).toStartWith(
      'Refused: switching off "desk" would leave you no channel',
    )
    expect(await onDesk('/confine wall all')).toBe(
      'Refused: "wall" is enforcing and not running, so it refuses every message on the channels it watches; watching these would leave you no channel to reach "admin" on, so you could not undo it.',
    )
    expect(bot.runtime.restrictions.confinedTo('wall')).toEqual(['yard'])
    expect(await onDesk('/confine wall yard crowd')).toBe('wall watches only yard, crowd.')
    expect(await onDesk('/confine wall yard')).toBe('wall watches only yard.')
    known('yard', false)
  })

  it('is free to make those changes once a channel with groups is a second way in', async () => {
    expect(await onDesk('/rule admin.rule group')).toStartWith('Refused: ')
    expect(bot.germination.byName.get('crowd')?.state).toBe('live')
    known('crowd', true)
    expect(await onDesk('/rule admin.rule group')).toBe('admin.rule now runs in groups only.')
    // desk stops before the answer could go out on it; the log says the reply could not be sent.
    expect(await onDesk('/disable desk')).toBe('')
    expect(enabled('desk')).toBe(false)
    await bot.emit('crowd', '/rule admin.rule clear', { group: 'den' })
    expect(bot.takeSent('crowd', 'den')).toEqual(['admin.rule runs everywhere again.'])
    // desk is stopped, so the way back is the other channel.
    await bot.emit('crowd', '/enable desk', { group: 'den' })
    expect(bot.takeSent('crowd', 'den')).toEqual(['desk is enabled and live.'])
  })
})

describe('the recovery paths', () => {
  type Toggle = Mycelium<'plugins.toggle'>

  it('refuses a principal on every surface, never the operator at the command line nor a spore on its own', async () => {
    const keeper = bot.surface<Toggle>('keeper')
    const principal = { kind: 'principal', principalId: owner, channel: 'desk', spore: 'keeper' } as const
    known('crowd', false)
    expect((await actingAs(principal, () => keeper.disable('desk'))).ok).toBe(false)
    expect(await actingAs({ kind: 'operator', surface: 'cli' }, () => keeper.disable('desk'))).toEqual({
      ok: true,
    })
    expect(await keeper.enable('desk')).toEqual({ ok: true })
    expect(await keeper.disable('desk')).toEqual({ ok: true })
    expect(await keeper.enable('desk')).toEqual({ ok: true })
  })
})
