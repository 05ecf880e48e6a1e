// Every audited operation, performed through the mycelium as a person in chat would, then read
// back from the audit log as the page words it (core/audit/sentence.ts with the page's catalogue),
// in English and French: the sentence is drawn from the arguments the call really received.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { MYCELIUM_SCOPES } from '@mycelo/septum'
import { auditLog } from '../../audit/log.ts'
import { AUDITED_SENTENCES, type AuditNames, auditSentenceParams } from '../../audit/sentence.ts'
import { WRITE_METHODS } from '../../audit/writes.ts'
import { loadDomain } from '../../boot/catalogues.ts'
import { Translator } from '../../i18n/translator.ts'
import { actingAs } from '../../mycelium/actor.ts'
import { agentsManage } from '../../mycelium/agents.ts'
import { pluginsConfigure } from '../../mycelium/configure.ts'
import { localeManage } from '../../mycelium/locale.ts'
import { messagesBroadcast } from '../../mycelium/messages.ts'
import { pluginsToggle } from '../../mycelium/plugins.ts'
import { principalsManage, principalsRead } from '../../mycelium/principals.ts'
import { restrictionsManage } from '../../mycelium/restrictions.ts'
import { rolesAssign, rolesManage } from '../../mycelium/roles.ts'
import { sourcesManage } from '../../mycelium/sources.ts'
import { ROOT } from '../boot/process.ts'
import { serveProbeSporangium } from '../http/api/sporangium.ts'
import { type Bot, probeEnzyme, probeHypha, startBot } from '../mycelium/harness.ts'
import { scratchFolder } from '../store/scratch.ts'
import type { IndexServer } from '../support/index-server.ts'

const silent = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent }
const words = new Translator({ defaultLocale: 'en', logger: silent })
// The whole core catalogue, the page's words included, as the browser reads it.
words.addDomain('core', loadDomain(join(ROOT, 'translations', 'core')))

let bot: Bot
let index: IndexServer
const scratch = scratchFolder('audit-sentences')
let boss: string
let ana: string

beforeAll(async () => {
  index = await serveProbeSporangium(scratch.path)
  bot = await startBot({
    spores: {
      chat: probeHypha('chat'),
      admin: probeEnzyme('admin', { scopes: MYCELIUM_SCOPES }),
      victim: probeEnzyme('victim'),
    },
    config: { sporangia: { allowLoopbackHttp: true } },
  })
  await bot.emit('chat', 'hello', { from: 'boss' })
  await bot.emit('chat', 'hello', { from: 'ana', displayName: 'Ana' })
  await bot.emit('chat', 'hello', { from: 'ben', group: 'family' })
  const people = principalsRead(bot.runtime)
  boss = (await people.findByIdentity('chat', 'boss'))!.id
  ana = (await people.findByIdentity('chat', 'ana'))!.id
})
afterAll(async () => {
  await bot?.stop()
  await index?.stop()
  scratch.remove()
})

/** The log's newest entry, as the page words it in `locale`. */
function lastSaid(locale: string): { method: string; said: string } {
  const [entry] = auditLog(bot.store).list({ limit: 1 })
  if (entry === undefined) throw new Error('nothing audited')
  const runtime = bot.runtime
  const principal = (id: string) => runtime.directory.load(id)?.principal
  const names: AuditNames = {
    person: (id) => principal(id)?.displayName ?? principal(id)?.identities[0]?.displayName,
    personAsMet: (id) =>
      principal(id)?.identities[0]?.displayName ?? principal(id)?.identities[0]?.externalId,
    conversation: (channel, id) =>
      runtime.conversations.list().find((one) => one.channel === channel && one.conversationId === id)?.label,
    language: (code) => new Intl.DisplayNames([locale], { type: 'language' }).of(code),
    agentKey: (id) => auditLabels.get(id) ?? undefined,
  }
  const params = auditSentenceParams(entry.method, entry.args, names)
  if (params === undefined) throw new Error(`no sentence for ${entry.method}`)
  return {
    method: entry.method,
    said: words.render({ domain: 'core', key: `page.audit.op.${entry.method}`, params }, locale),
  }
}
const auditLabels = new Map<string, string>()

/** Runs one operation as the owner in chat, and answers its audit sentence in both languages. */
async function said(work: () => Promise<unknown>): Promise<{ method: string; en: string; fr: string }> {
  await actingAs(
    { kind: 'principal', principalId: boss, channel: 'chat', spore: 'admin', locale: 'en' },
    work,
  )
  const en = lastSaid('en')
  return { method: en.method, en: en.said, fr: lastSaid('fr').said }
}

describe('the audit log in words, operation by operation', () => {
  it('has a sentence, in both languages, for every audited method', () => {
    const audited = Object.entries(WRITE_METHODS).flatMap(([scope, methods]) =>
      (methods ?? []).map((method) => `${scope}.${method}`),
    )
    expect([...AUDITED_SENTENCES].sort()).toEqual(audited.sort())
    for (const locale of ['en', 'fr']) {
      const catalogue = Bun.YAML.parse(
        readFileSync(join(ROOT, 'translations', 'core', `${locale}.yaml`), 'utf8'),
      ) as { page: { audit: { op: Record<string, unknown> } } }
      for (const method of audited) expect(typeof catalogue.page.audit.op[method]).toBe('string')
    }
  })

  it('people and roles', async () => {
    const rt = bot.runtime
    expect(await said(() => rolesManage(rt).createRole('helper', ['victim.*']))).toMatchObject({
      en: 'created the role helper',
      fr: 'a créé le rôle helper',
    })
    expect(await said(() => rolesManage(rt).setRoleCommands('helper', ['victim.noop']))).toMatchObject({
      en: 'changed the commands the role helper allows',
    })
    expect(await said(() => rolesAssign(rt).assignRole(ana, 'helper'))).toEqual({
      method: 'roles.assign.assignRole',
      en: 'granted helper to Ana',
      fr: 'a donné helper à Ana',
    })
    expect(await said(() => rolesAssign(rt).revokeRole(ana, 'helper'))).toMatchObject({
      en: 'took helper from Ana',
      fr: 'a retiré helper à Ana',
    })
    expect(await said(() => rolesManage(rt).deleteRole('helper'))).toMatchObject({
      en: 'deleted the role helper',
    })
    expect(await said(() => principalsManage(rt).markReviewed(ana))).toMatchObject({
      en: 'marked Ana as reviewed',
    })
    expect(await said(() => principalsManage(rt).setDisplayName(ana, 'Anna'))).toMatchObject({
      en: 'renamed Ana to Anna',
      fr: 'a renommé Ana en Anna',
    })
    expect(await said(() => principalsManage(rt).setDisplayName(ana, ''))).toMatchObject({
      en: 'gave Ana back their channel’s name',
    })
    expect(await said(() => localeManage(rt).setPrincipalLocale(ana, 'fr'))).toMatchObject({
      en: 'set the language of Ana to French',
      fr: 'a mis la langue de Ana en français',
    })
  })

  it('spores, settings, rules, targets and broadcast', async () => {
    const rt = bot.runtime
    expect(await said(() => pluginsToggle(rt, bot.plugins).disable('victim'))).toMatchObject({
      en: 'disabled victim',
      fr: 'a désactivé victim',
    })
    expect(await said(() => pluginsToggle(rt, bot.plugins).enable('victim'))).toMatchObject({
      en: 'enabled victim',
    })
    expect(await said(() => pluginsToggle(rt, bot.plugins).rescan!())).toMatchObject({
      en: 'looked for new spores',
    })
    expect(
      await said(() => pluginsConfigure(rt, bot.plugins).setSetting('victim', 'greeting', 'hi')),
    ).toMatchObject({
      method: 'plugins.configure.setSetting',
      en: 'changed greeting of victim',
    })
    expect(
      await said(() => pluginsConfigure(rt, bot.plugins).unsetSetting('victim', 'greeting')),
    ).toMatchObject({
      en: 'removed greeting of victim',
    })
    const rules = restrictionsManage(rt)
    expect(await said(() => rules.setContextRule('victim.noop', ['group']))).toMatchObject({
      en: 'let victim.noop run only in groups',
      fr: 'a permis victim.noop seulement dans les groupes',
    })
    expect(await said(() => rules.setContextRule('victim.noop', ['dm', 'group']))).toMatchObject({
      en: 'let victim.noop run only in direct messages and groups',
    })
    expect(await said(() => rules.clearContextRule('victim.noop'))).toMatchObject({
      en: 'let victim.noop run anywhere again',
    })
    expect(
      await said(() => rules.addBroadcastTarget({ channel: 'chat', conversationId: 'family' })),
    ).toMatchObject({
      en: 'added Group family (chat) to the broadcast targets',
      fr: 'a ajouté Group family (chat) aux cibles de diffusion',
    })
    expect(await said(() => messagesBroadcast(rt).broadcast({ text: 'dinner' }))).toMatchObject({
      en: 'sent a message to every broadcast target',
    })
    expect(
      await said(() => rules.removeBroadcastTarget({ channel: 'chat', conversationId: 'family' })),
    ).toMatchObject({
      en: 'removed Group family (chat) from the broadcast targets',
    })
    expect(await said(() => localeManage(rt).setConversationLocale('chat', 'family', 'fr'))).toMatchObject({
      en: 'set the language of Group family (chat) to French',
      fr: 'a mis la langue de Group family (chat) en français',
    })
  })

  it('sources and installs', async () => {
    const sources = sourcesManage(bot.runtime)
    let id = ''
    expect(
      await said(async () => {
        id = (await sources.addSource({ label: 'Home sporangium', url: index.url })).id
      }),
    ).toMatchObject({ en: 'added the source Home sporangium', fr: 'a ajouté la source Home sporangium' })
    expect(await said(() => sources.updateSource(id, { label: 'Home' }))).toMatchObject({
      en: `changed the source ${id}`,
    })
    expect(
      await said(() => sources.inoculate({ source: id, spore: 'probe', strain: '1.0.0' })),
    ).toMatchObject({
      en: `installed probe from ${id}`,
      fr: `a installé probe depuis ${id}`,
    })
    expect(await said(() => sources.uninstall('probe', { keepData: false }))).toMatchObject({
      en: 'uninstalled probe and deleted its data',
      fr: 'a désinstallé probe et supprimé ses données',
    })
    expect(await said(() => sources.deleteSource(id))).toMatchObject({ en: `deleted the source ${id}` })
  })

  it('agent keys', async () => {
    const agents = agentsManage(bot.runtime)
    let id = ''
    expect(
      await said(async () => {
        const made = await agents.createAgentKey('laptop')
        if (!made.ok) throw new Error('refused')
        id = made.value.key.id
        auditLabels.set(id, made.value.key.label)
      }),
    ).toMatchObject({ en: 'created the agent key “laptop”', fr: 'a créé la clé d’agent « laptop »' })
    expect(
      await said(() => agents.confirmAgentKeyIn(id, { channel: 'chat', conversationId: 'family' })),
    ).toMatchObject({ en: 'had the agent key “laptop” ask for confirmation in Group family (chat)' })
    expect(await said(() => agents.confirmAgentKeyIn(id, null))).toMatchObject({
      en: 'had the agent key “laptop” ask for confirmation in the MCP client',
    })
    expect(await said(() => agents.revokeAgentKey(id))).toMatchObject({
      en: 'revoked the agent key “laptop”',
      fr: 'a révoqué la clé d’agent « laptop »',
    })
  })
})
