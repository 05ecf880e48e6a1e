// Every write, on every surface, lands in one audit log: chat (the admin spore over the real bus),
// the API (a web session), and the command-line companion (a real process).
import { afterAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { auditLog } from '../../audit/log.ts'
import { actingAs } from '../../mycelium/actor.ts'
import { sourceManageOutcomes } from '../../mycelium/sources.ts'
import { openStore } from '../../store/index.ts'
import { runCli } from '../boot/process.ts'
import { scratchFolder } from '../store/scratch.ts'
import { startWebBot, tokenOf } from './web.ts'

const scratch = scratchFolder('http-audit')
afterAll(() => scratch.remove())

describe('the audit log', () => {
  it('records a chat write, a refused one, an API write and a CLI write, newest first, each with its actor', async () => {
    const bot = await startWebBot({ folder: scratch.path })
    const { core, client } = bot
    const owner = core.assembly.runtime.directory.resolve({ channel: 'chat', externalId: 'owner' }).id
    await core.ask('/lang fr')
    await core.ask('/disable nothing-here')
    const signed = await client.signIn(tokenOf(bot.loginLink))
    expect(
      (await client.send('/api/v1/me/locale', { method: 'PUT', body: { locale: 'en' }, session: signed }))
        .status,
    ).toBe(200)
    // Reads are not audited.
    await core.ask('/plugins')
    await bot.stop()

    // The companion writes once the bot has let go of the database.
    const cli = await runCli(['enable', 'admin'], join(scratch.path, 'mycelo.yaml'))
    expect(cli.code).toBe(0)

    const store = openStore({ path: join(scratch.path, 'mycelo.db') })
    try {
      const entries = auditLog(store).list()
      expect(
        entries.map(({ actorKind, actor, via, method, args, outcome, detail }) => ({
          actorKind,
          actor,
          via,
          method,
          args,
          outcome,
          detail,
        })),
      ).toEqual([
        {
          actorKind: 'operator',
          actor: 'cli',
          via: 'cli',
          method: 'plugins.toggle.enable',
          args: ['admin'],
          outcome: 'ok',
          detail: null,
        },
        {
          actorKind: 'principal',
          actor: owner,
          via: 'web',
          method: 'locale.manage.setPrincipalLocale',
          args: [owner, 'en'],
          outcome: 'ok',
          detail: null,
        },
        {
          actorKind: 'principal',
          actor: owner,
          via: 'chat',
          method: 'plugins.toggle.disable',
          args: ['nothing-here'],
          outcome: 'refused',
          detail: 'refusal.plugin_unknown',
        },
        {
          actorKind: 'principal',
          actor: owner,
          via: 'chat',
          method: 'locale.manage.setPrincipalLocale',
          args: [owner, 'fr'],
          outcome: 'ok',
          detail: null,
        },
      ])
      expect(entries.every((entry) => entry.at > 0)).toBe(true)
      // Paged by id: `before` the newest answers the rest.
      expect(
        auditLog(store)
          .list({ limit: 2, before: entries[0]!.id })
          .map((entry) => entry.id),
      ).toEqual([entries[1]!.id, entries[2]!.id])
    } finally {
      store.close()
    }
  })

  it('masks a secret among the arguments', async () => {
    const bot = await startWebBot()
    try {
      const { runtime } = bot.core.assembly
      const owner = runtime.directory.resolve({ channel: 'chat', externalId: 'owner' }).id
      await actingAs({ kind: 'principal', principalId: owner, channel: 'web', spore: 'web' }, () =>
        sourceManageOutcomes(runtime).addSource({
          label: 'friends',
          url: 'https://sporangium.example/index.json',
          token: 'tok-9a8b7c',
        }),
      )
      const [entry] = auditLog(runtime.store).list({ limit: 1 })
      expect(entry?.method).toBe('sources.manage.addSource')
      expect(JSON.stringify(entry?.args)).not.toContain('tok-9a8b7c')
      expect(entry?.args).toEqual([
        { label: 'friends', url: 'https://sporangium.example/index.json', token: '••••' },
      ])
    } finally {
      await bot.stop()
    }
  })

  it('never keeps a secret setting written through chat, and keeps a plain one', async () => {
    const bot = await startWebBot({ spores: { vault: VAULT } })
    try {
      const { core } = bot
      expect(await core.ask('/set vault token tok-1f2e3d')).toHaveLength(1)
      await core.ask('/set vault greeting bonjour')
      const entries = auditLog(core.store).list({ limit: 2 })
      expect(entries.map((entry) => [entry.method, entry.outcome, entry.args])).toEqual([
        ['plugins.configure.setSetting', 'ok', ['vault', 'greeting', 'bonjour']],
        ['plugins.configure.setSetting', 'ok', ['vault', 'token', '••••']],
      ])
    } finally {
      await bot.stop()
    }
  })

  it('names a spore writing on its own, outside any command', async () => {
    const bot = await startWebBot({ spores: { tidy: TIDY } })
    try {
      const [entry] = auditLog(bot.core.store).list({ limit: 1 })
      expect(entry).toMatchObject({
        actorKind: 'spore',
        actor: 'tidy',
        method: 'plugins.toggle.disable',
        args: ['nothing-here'],
        outcome: 'refused',
      })
    } finally {
      await bot.stop()
    }
  })
})

/** A hypha with a secret `token` and a plain `greeting`. */
const VAULT = {
  'spore.yaml': 'kind: hypha\nname: vault\nseptum: "^1.0"\ncapabilities: []\n',
  'src/index.ts': `
import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'
export default {
  configSchema: defineConfig(
    z.strictObject({ greeting: z.string().default('hello'), token: z.string().optional() }),
    { secrets: ['token'] },
  ),
  create: () => ({ async connect() {}, async listen() {}, async stop() {}, async send() {} }),
}
`,
}

/** An enzyme that, at its start, asks the mycelium to disable a spore that does not exist. */
const TIDY = {
  'spore.yaml':
    'kind: enzyme\nname: tidy\nseptum: "^1.0"\nrequires:\n  - rhiza: mycelium\n    scopes: [plugins.toggle]\ncommands:\n  - name: tidy\n    description: tidy.description\n    respond: tidy.done\n',
  'src/index.ts': `
export default {
  create: () => ({
    handlers: {},
    async start(ctx) { await ctx.rhiza('mycelium').disable('nothing-here') },
  }),
}
`,
  'translations/en.yaml': 'tidy:\n  description: Tidies\n  done: Tidied\n',
}
