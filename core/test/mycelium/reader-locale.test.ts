import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { DiscordConnectError } from '../../../spores/discord/src/connect-refusal.ts'
import { loadDomain } from '../../boot/catalogues.ts'
import { DISABLED_REASON } from '../../germination/enablement.ts'
import { coreReason, reasonPart } from '../../i18n/reason-words.ts'
import { Translator } from '../../i18n/translator.ts'
import { actingAs } from '../../mycelium/actor.ts'
import { faultRef, reasonForReader } from '../../mycelium/reader-locale.ts'
import { requestsWords } from '../../sporangium/install/requests.ts'
import { ROOT } from '../boot/process.ts'
import { realSpore } from '../support/real-spores.ts'
import { startTestCore, type TestCore } from '../support/runtime.ts'

const silent = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent }

function translatorWithDiscord(): Translator {
  const translator = new Translator({ defaultLocale: 'en', logger: silent })
  translator.addDomain('discord', loadDomain(join(ROOT, 'spores', 'discord', 'translations')))
  translator.addDomain('core', loadDomain(join(ROOT, 'translations', 'core')))
  return translator
}

const reader = (locale: string) =>
  ({ kind: 'principal', principalId: 'p-1', channel: 'chat', spore: 'admin', locale }) as const

describe('a reason worded for its reader', () => {
  const error = new DiscordConnectError('token_rejected', {})
  const ref = faultRef(error)
  const kept = coreReason('stepFailed', { step: 'connect()', fault: error.message }, ref && { fault: ref })

  it("renders a channel's connect error in the language of the command's reader", () => {
    const translator = translatorWithDiscord()
    expect(ref).toEqual({ domain: 'discord', key: 'connect.token_rejected', params: {} })
    const french = actingAs(reader('fr'), () => reasonForReader(translator, kept))
    expect(french).toStartWith('connect() a échoué : Discord a refusé le jeton du bot')
    expect(actingAs(reader('en'), () => reasonForReader(translator, kept))).toBe(
      `connect() failed: ${error.message}`,
    )
  })

  it('uses the default language outside a command, and the kept text when no catalogue has the key', () => {
    const translator = translatorWithDiscord()
    expect(reasonForReader(translator, kept)).toBe(`connect() failed: ${error.message}`)
    // Text the core did not word (a spore's own, or from an earlier process) is shown as kept.
    expect(actingAs(reader('fr'), () => reasonForReader(translator, 'kept words'))).toBe('kept words')
    // A reason the core worded reads in French, constants included.
    expect(
      actingAs(reader('fr'), () => reasonForReader(translator, coreReason('cycle', { cycle: 'a → b → a' }))),
    ).toBe(
      'ses requires forment un cycle (exigences optionnelles comprises) : a → b → a ; retirez une entrée requires pour le rompre',
    )
    expect(actingAs(reader('fr'), () => reasonForReader(translator, DISABLED_REASON))).toBe(
      'désactivée par un opérateur',
    )
    // Worded by another process (kept in the install table): read back from the English template.
    expect(
      actingAs(reader('fr'), () => reasonForReader(translator, 'storage migration 3 failed: no table')),
    ).toBe('la migration de stockage 3 a échoué : no table')
    expect(
      actingAs(reader('fr'), () =>
        reasonForReader(translator, 'needs the connected system "radarr", which is not installed'),
      ),
    ).toBe("a besoin du système connecté « radarr », qui n'est pas installé")
    // A select's argument is read back as the value it was chosen by.
    expect(
      actingAs(reader('fr'), () =>
        reasonForReader(translator, 'needs the connected system "radarr", which is dormant'),
      ),
    ).toBe('a besoin du système connecté « radarr », qui est en sommeil')
    // An install's reason, built of parts, reads whole in French.
    const installed = coreReason('notStarted', {
      what: reasonPart('installedAt', { strain: '1.0.0', source: 'home' }),
      more: 'no',
      asked: requestsWords({ kind: 'enzyme', enforcing: false, rhizas: [], scopes: ['plugins.read'] }),
    })
    expect(installed).toBe(
      'installed at strain 1.0.0 from source "home", and not started: it is a set of commands, needs no connected system, and asks to act on the bot itself (permission plugins.read). Enable it to start it.',
    )
    expect(actingAs(reader('fr'), () => reasonForReader(translator, installed))).toBe(
      "installée en version 1.0.0 depuis la source « home », et pas démarrée : c'est un ensemble de commandes, elle n'a besoin d'aucun système connecté et demande à agir sur le bot lui-même (permission plugins.read). Activez-la pour la démarrer.",
    )
    expect(faultRef(new Error('plain'))).toBeUndefined()
    expect(faultRef({ ref: { domain: 'discord' } })).toBeUndefined()
  })
})

describe("the actor of a command's handler", () => {
  let core: TestCore
  beforeAll(async () => {
    const readerLocale = join(ROOT, 'core', 'mycelium', 'reader-locale.ts')
    core = await startTestCore({
      spores: {
        speaker: {
          'spore.yaml':
            'kind: enzyme\nname: speaker\nseptum: "^1.0"\ncommands:\n  - name: tongue\n    description: d\n    code: tongue\n',
          'src/index.ts': `
import { readerLocale } from ${JSON.stringify(readerLocale)}
export default {
  create: () => ({
    handlers: {
      async tongue(_invocation: unknown, ctx: any) {
        await ctx.reply({ text: readerLocale('default') })
      },
    },
  }),
}
`,
        },
      },
    })
  })
  afterAll(() => core.stop())

  it("carries the reader's language: the conversation's, else the default", async () => {
    expect(await core.ask('/tongue')).toEqual(['en'])
    await core.say('hello', { conversationId: 'salon' })
    core.assembly.runtime.conversations.setLocale('chat', 'salon', 'fr')
    expect(await core.ask('/tongue', { conversationId: 'salon' })).toEqual(['fr'])
  })
})

describe('reasons and setting issues, through the real admin spore, in the reader’s language', () => {
  let core: TestCore
  beforeAll(async () => {
    core = await startTestCore({
      spores: {
        admin: realSpore('admin'),
        flaky: {
          'spore.yaml': 'kind: hypha\nname: flaky\nseptum: "^1.0"\ncapabilities: []\n',
          'translations/en.yaml': 'down: "the flaky service said no"\n',
          'translations/fr.yaml': 'down: "le service flaky a dit non"\n',
          'src/index.ts': `export default { create: () => ({
  async connect() { throw Object.assign(new Error('the flaky service said no'), { ref: { domain: 'flaky', key: 'down' } }) },
  async listen() {}, async stop() {}, async send() {},
}) }\n`,
        },
        unset: {
          'spore.yaml':
            'kind: enzyme\nname: unset\nseptum: "^1.0"\ncommands:\n  - { name: unset-it, description: d, respond: r }\n',
          'src/index.ts': `import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'
export default { configSchema: defineConfig(z.object({ url: z.string() })), create: () => ({ handlers: {} }) }\n`,
        },
        tuned: {
          'spore.yaml':
            'kind: enzyme\nname: tuned\nseptum: "^1.0"\ncommands:\n  - { name: tune, description: d, respond: r }\n',
          'src/index.ts': `import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'
export default { configSchema: defineConfig(z.object({ port: z.int().min(1).optional() })), create: () => ({ handlers: {} }) }\n`,
        },
      },
    })
    await core.ask('/admin.lang fr')
  })
  afterAll(async () => {
    await core.stop()
  })

  it('words a channel’s connect error, as /plugins shows it, in French', async () => {
    const [listing] = await core.ask('/admin.plugins')
    expect(listing).toContain('le service flaky a dit non')
    expect(listing).not.toContain('the flaky service said no')
  })

  it('words the core’s own reasons in French, one worded by the first start’s probe process too', async () => {
    const [listing] = await core.ask('/admin.plugins')
    expect(listing).toContain('la configuration est incomplète')
    expect(listing).not.toContain('configuration is incomplete')
  })

  it('words what is wrong with a setting in French', async () => {
    const [answer] = await core.ask('/admin.set tuned port 0')
    expect(answer).toContain('Doit être supérieur ou égal à 1')
  })
})
