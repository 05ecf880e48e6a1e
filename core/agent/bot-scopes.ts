import type { MyceliumScope, PushTarget } from '@mycelo/septum'
import { z } from 'zod'
import { commandsRead } from '../mycelium/commands.ts'
import { pluginsConfigure } from '../mycelium/configure.ts'
import { conversationsRead } from '../mycelium/conversations.ts'
import { healthRead } from '../mycelium/health.ts'
import { localeOutcomes } from '../mycelium/locale.ts'
import { messagesBroadcast, messagesSend } from '../mycelium/messages.ts'
import { pluginsRead, pluginsToggle } from '../mycelium/plugins.ts'
import { principalsManage, principalsRead } from '../mycelium/principals.ts'
import { restrictionOutcomes } from '../mycelium/restrictions.ts'
import { rolesAssign, rolesManage, rolesRead } from '../mycelium/roles.ts'
import { sourceManageOutcomes } from '../mycelium/sources.ts'
import { webLogin } from '../mycelium/web.ts'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import { agentKeyVerbs } from './bot-agent-keys.ts'

/** One mycelium method as an operation: its input, its honest label, and the call it makes. */
export interface Verb {
  readonly description: string
  readonly access: 'read' | 'write'
  readonly confirm?: boolean
  readonly input: z.ZodType
  readonly call: (input: never) => Promise<unknown> | unknown
}

const none = z.object({})
const plugin = z.object({ name: z.string() })
const uninstalling = z.object({ name: z.string(), keepData: z.boolean().optional() })
const principal = z.object({ principalId: z.string() })
const id = z.object({ id: z.string() })
const role = z.object({ name: z.string() })
const target = z.object({ channel: z.string(), conversationId: z.string() })
const text = z.object({ text: z.string().min(1) })
const kinds = z.array(z.enum(['dm', 'group'])).min(1)
const source = z.object({
  label: z.string(),
  url: z.string(),
  token: z.string().optional(),
  enabled: z.boolean().optional(),
  publisherKey: z.string().optional(),
})
const read = (description: string, input: z.ZodType, call: Verb['call']): Verb => ({
  description,
  access: 'read',
  input,
  call,
})
const write = (description: string, input: z.ZodType, call: Verb['call'], confirm = false): Verb => ({
  description,
  access: 'write',
  confirm,
  input,
  call,
})

/**
 * Every scope's methods as verbs over the functions the other surfaces call, the Outcome-returning
 * versions where they exist, so a refusal is an ordinary result. Removing, revoking, disabling and
 * installing ask a person each time.
 */
export function scopeVerbs(runtime: CoreRuntime): { readonly [S in MyceliumScope]: Record<string, Verb> } {
  const plugins = pluginsRead(runtime)
  const toggle = pluginsToggle(runtime, runtime.plugins)
  const configure = pluginsConfigure(runtime, runtime.plugins)
  const principals = principalsRead(runtime)
  const manage = principalsManage(runtime)
  const roles = rolesRead(runtime)
  const assign = rolesAssign(runtime)
  const roleAdmin = rolesManage(runtime)
  const restrictions = restrictionOutcomes(runtime)
  const locale = localeOutcomes(runtime)
  const sources = sourceManageOutcomes(runtime)
  type P<T> = (input: T) => unknown
  return {
    'plugins.read': { listPlugins: read('Every spore: kind, state, why', none, () => plugins.listPlugins()) },
    'health.read': {
      health: read('Each connected system’s health', none, () => healthRead(runtime).health()),
    },
    'messages.send': {
      send: write('Sends a text to one conversation', target.extend(text.shape), (({ text, ...to }) =>
        messagesSend(runtime).send(to, { text })) as P<PushTarget & { text: string }>),
    },
    'principals.read': {
      listPrincipals: read('Every known person', none, () => principals.listPrincipals()),
      getPrincipal: read('One person by id', id, (({ id }) => principals.getPrincipal(id)) as P<{
        id: string
      }>),
      findByIdentity: read(
        'The person behind a channel identity',
        z.object({ channel: z.string(), externalId: z.string() }),
        (({ channel, externalId }) => principals.findByIdentity(channel, externalId)) as P<{
          channel: string
          externalId: string
        }>,
      ),
    },
    'principals.manage': {
      markReviewed: write('Marks a person reviewed', id, (({ id }) => manage.markReviewed(id)) as P<{
        id: string
      }>),
      setDisplayName: write(
        'Sets a person’s display name',
        z.object({ id: z.string(), displayName: z.string() }),
        (({ id, displayName }) => manage.setDisplayName(id, displayName)) as P<{
          id: string
          displayName: string
        }>,
      ),
    },
    'roles.read': {
      listRoles: read('Every role and its command patterns', none, () => roles.listRoles()),
      rolesOf: read('The roles a person holds', principal, (({ principalId }) =>
        roles.rolesOf(principalId)) as P<{ principalId: string }>),
    },
    'roles.assign': {
      assignRole: write('Gives a person a role', principal.extend({ role: z.string() }), (({
        principalId,
        role,
      }) => assign.assignRole(principalId, role)) as P<{ principalId: string; role: string }>),
      revokeRole: write(
        'Takes a role from a person',
        principal.extend({ role: z.string() }),
        (({ principalId, role }) => assign.revokeRole(principalId, role)) as P<{
          principalId: string
          role: string
        }>,
        true,
      ),
    },
    'roles.manage': {
      createRole: write('Creates a role', role.extend({ patterns: z.array(z.string()) }), (({
        name,
        patterns,
      }) => roleAdmin.createRole(name, patterns)) as P<{ name: string; patterns: string[] }>),
      setRoleCommands: write(
        'Replaces a role’s command patterns',
        role.extend({ patterns: z.array(z.string()) }),
        (({ name, patterns }) => roleAdmin.setRoleCommands(name, patterns)) as P<{
          name: string
          patterns: string[]
        }>,
      ),
      deleteRole: write(
        'Deletes a role',
        role,
        (({ name }) => roleAdmin.deleteRole(name)) as P<{ name: string }>,
        true,
      ),
    },
    'plugins.toggle': {
      enable: write('Enables a spore and starts it at once', plugin, (({ name }) =>
        toggle.enable(name)) as P<{ name: string }>),
      disable: write(
        'Disables a spore and stops it at once',
        plugin,
        (({ name }) => toggle.disable(name)) as P<{ name: string }>,
        true,
      ),
      reload: write('Reads a spore again from disk and restarts it', plugin, (({ name }) =>
        toggle.reload ? toggle.reload(name) : Promise.resolve({ ok: true })) as P<{ name: string }>),
      rescan: write('Finds spores that appeared since start-up; each is listed, disabled', none, (() =>
        toggle.rescan
          ? toggle.rescan()
          : Promise.resolve({ ok: true, value: { found: [], refused: [] } })) as P<Record<string, never>>),
    },
    'plugins.configure': {
      settings: read('A spore’s settings, secrets masked', plugin, (({ name }) =>
        configure.settings(name)) as P<{ name: string }>),
      formSchema: read('The JSON Schema of a spore’s settings', plugin, (({ name }) =>
        configure.formSchema(name)) as P<{ name: string }>),
      setSetting: write(
        'Stores one setting of a spore',
        plugin.extend({ key: z.string(), value: z.json() }),
        (({ name, key, value }) => configure.setSetting(name, key, value)) as P<{
          name: string
          key: string
          value: unknown
        }>,
      ),
      unsetSetting: write(
        'Removes one stored setting of a spore',
        plugin.extend({ key: z.string() }),
        (({ name, key }) => configure.unsetSetting(name, key)) as P<{ name: string; key: string }>,
        true,
      ),
    },
    'messages.broadcast': {
      broadcast: write('Sends a text to every broadcast target', text, (({ text }) =>
        messagesBroadcast(runtime).broadcast({ text })) as P<{ text: string }>),
    },
    'conversations.read': {
      listConversations: read('Every conversation the bot has seen', none, () =>
        conversationsRead(runtime).listConversations(),
      ),
    },
    'restrictions.manage': restrictionVerbs(restrictions),
    'locale.manage': {
      availableLocales: read('The locales some catalogue ships', none, () => locale.availableLocales()),
      setPrincipalLocale: write('Sets a person’s locale', principal.extend({ locale: z.string() }), (({
        principalId,
        locale: to,
      }) => locale.setPrincipalLocale(principalId, to)) as P<{
        principalId: string
        locale: string
      }>),
      setConversationLocale: write('Sets a conversation’s locale', target.extend({ locale: z.string() }), (({
        channel,
        conversationId,
        locale: to,
      }) => locale.setConversationLocale(channel, conversationId, to)) as P<{
        channel: string
        conversationId: string
        locale: string
      }>),
    },
    'commands.read': {
      available: read(
        'The commands a person may run, described in a locale',
        principal.extend({
          locale: z.string(),
          where: z.object({ channel: z.string(), kind: z.enum(['dm', 'group']).optional() }).optional(),
        }),
        (({ principalId, locale: at, where }) =>
          commandsRead(runtime).available(principalId, at, where)) as P<{
          principalId: string
          locale: string
          where?: { channel: string; kind?: 'dm' | 'group' }
        }>,
      ),
      availableToNewcomers: read(
        'The commands someone not met yet may run, described in a locale',
        z.object({
          locale: z.string(),
          where: z.object({ channel: z.string(), kind: z.enum(['dm', 'group']).optional() }).optional(),
        }),
        (({ locale: at, where }) => commandsRead(runtime).availableToNewcomers(at, where)) as P<{
          locale: string
          where?: { channel: string; kind?: 'dm' | 'group' }
        }>,
      ),
      locales: read('The locales commands can be described in', none, () => commandsRead(runtime).locales()),
    },
    'sources.manage': {
      listSources: read('The sporangium sources, tokens masked', none, () => sources.listSources()),
      offered: read('What one source offers', id, (({ id }) => sources.offered(id)) as P<{ id: string }>),
      addSource: write('Adds a source', source, ((added) => sources.addSource(added)) as P<
        z.output<typeof source>
      >),
      updateSource: write('Changes a source', id.extend({ patch: source.partial() }), (({ id, patch }) =>
        sources.updateSource(id, patch)) as P<{ id: string; patch: Partial<z.output<typeof source>> }>),
      deleteSource: write(
        'Deletes a source',
        id,
        (({ id }) => sources.deleteSource(id)) as P<{ id: string }>,
        true,
      ),
      inoculate: write(
        'Installs a spore from a source',
        z.object({ source: z.string(), spore: z.string(), strain: z.string().optional() }),
        ((request) => sources.inoculate(request)) as P<{ source: string; spore: string; strain?: string }>,
        true,
      ),
      upgrade: write(
        'Installs the newest strain that runs here of a spore installed from a source',
        plugin,
        (({ name }) => sources.upgrade(name)) as P<{ name: string }>,
        true,
      ),
      rollBack: write('Puts back the strain an install replaced', plugin, (({ name }) =>
        sources.rollBack(name)) as P<{ name: string }>),
      uninstall: write(
        'Removes an installed spore; keepData true keeps its stored data, false deletes it (required when it stored any)',
        uninstalling,
        (({ name, keepData }) => sources.uninstall(name, keepData === undefined ? {} : { keepData })) as P<{
          name: string
          keepData?: boolean
        }>,
        true,
      ),
    },
    // Refused to an agent by the core: a login code is for a person asking in chat.
    'web.login': {
      loginCode: write('A one-time admin page code (only for a person in chat)', none, () =>
        webLogin(runtime).loginCode(),
      ),
    },
    'agents.manage': agentKeyVerbs(runtime),
  }
}

function restrictionVerbs(restrictions: ReturnType<typeof restrictionOutcomes>): Record<string, Verb> {
  type P<T> = (input: T) => unknown
  const inhibitor = z.object({ inhibitor: z.string() })
  const confine = (({ inhibitor: name, channels }) => restrictions.confineInhibitor(name, channels)) as P<{
    inhibitor: string
    channels: string[]
  }>
  return {
    listContextRules: read('Where each restricted command may run', none, () =>
      restrictions.listContextRules(),
    ),
    setContextRule: write(
      'Restricts a command to kinds of conversation',
      z.object({ pattern: z.string(), where: kinds }),
      (({ pattern, where }) => restrictions.setContextRule(pattern, where)) as P<{
        pattern: string
        where: ('dm' | 'group')[]
      }>,
    ),
    clearContextRule: write('Lifts a command’s restriction', z.object({ pattern: z.string() }), (({
      pattern,
    }) => restrictions.clearContextRule(pattern)) as P<{ pattern: string }>),
    inhibitorChannels: read('The channels a filter watches (empty: all)', inhibitor, (({ inhibitor: name }) =>
      restrictions.inhibitorChannels(name)) as P<{ inhibitor: string }>),
    setInhibitorChannels: write(
      'Sets the channels a filter watches',
      inhibitor.extend({ channels: z.array(z.string()) }),
      confine,
    ),
    confineInhibitor: write(
      'The same as setInhibitorChannels',
      inhibitor.extend({ channels: z.array(z.string()) }),
      confine,
    ),
    listBroadcastTargets: read('Where broadcasts go', none, () => restrictions.listBroadcastTargets()),
    addBroadcastTarget: write('Adds a broadcast target', target, ((to) =>
      restrictions.addBroadcastTarget(to)) as P<PushTarget>),
    removeBroadcastTarget: write('Removes a broadcast target', target, ((to) =>
      restrictions.removeBroadcastTarget(to)) as P<PushTarget>),
  }
}
