import type {
  BroadcastResult,
  ContextRule,
  ContextRuleWhere,
  ConversationInfo,
  ConversationKind,
  FormSchema,
  OutcomeOf,
  OutgoingContent,
  PluginInfo,
  PrincipalInfo,
  PushTarget,
  RhizaHealth,
  RoleInfo,
  WebLoginCode,
} from '@mycelo/septum'
import { type Outcome, RefusalError, SECRET_MASK } from '@mycelo/septum'
import type { AdminMycelium } from '../src/index.ts'
import { FakeAgentKeys } from './fake-agent-keys.ts'

const done: Outcome = { ok: true }

/** A form with one key per type a typed value is read by, and a union that gives none. */
const TUNER_SCHEMA = {
  type: 'object',
  properties: {
    phone: { type: 'string' },
    mode: { enum: ['fast', 'slow'] },
    port: { type: 'integer' },
    ratio: { type: 'number' },
    strict: { type: 'boolean' },
    guilds: { type: 'array', items: { type: 'string' } },
    sizes: { type: 'array', items: { type: 'integer' } },
    limits: { type: 'object' },
    retries: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
  },
}

type Refusal = Extract<Outcome, { ok: false }>

interface Person {
  id: string
  displayName?: string
  roles: string[]
  reviewed: boolean
  locale?: string
}

const sameTarget = (a: PushTarget) => (b: PushTarget) =>
  a.channel === b.channel && a.conversationId === b.conversationId

/**
 * The admin scopes in memory, refusing the way the core does. Refusals name the `common` domain
 * unless `refusalDomain` says otherwise.
 */
export class FakeMycelium extends FakeAgentKeys implements AdminMycelium {
  override refusalDomain = 'common'
  override readonly plugins: PluginInfo[] = [
    { name: 'admin', kind: 'enzyme', state: 'live', enabled: true },
    { name: 'console', kind: 'hypha', state: 'live', enabled: true },
    {
      name: 'radarr',
      kind: 'rhiza',
      state: 'disabled',
      enabled: false,
      reason: 'switched off by an operator',
    },
    { name: 'quiet-hours', kind: 'inhibitor', state: 'live', enabled: true },
    { name: 'broken', state: 'dormant', enabled: true, reason: 'spore.yaml: kind is missing' },
  ]
  readonly people = new Map<string, Person>([
    ['p-owner', { id: 'p-owner', displayName: 'Olivia', roles: ['owner'], reviewed: true }],
    ['p-bob', { id: 'p-bob', roles: [], reviewed: false }],
  ])
  readonly roles = new Map<string, { patterns: string[]; builtin: boolean }>([
    ['owner', { patterns: ['*'], builtin: true }],
    ['member', { patterns: ['help.*'], builtin: false }],
  ])
  readonly stored = new Map<string, Record<string, unknown>>([
    ['radarr', { url: 'http://127.0.0.1:7878' }],
    ['console', {}],
    ['admin', {}],
    ['tuner', {}],
  ])
  readonly secrets = new Map<string, readonly string[]>([['radarr', ['apiKey']]])
  readonly rules = new Map<string, readonly ConversationKind[]>()
  readonly confinement = new Map<string, readonly string[]>([['quiet-hours', []]])
  readonly targets: PushTarget[] = []
  readonly unreachable = new Set<string>()
  readonly sent: { target: PushTarget; content: OutgoingContent }[] = []
  readonly conversationLocales = new Map<string, string>()
  conversations: ConversationInfo[] = []
  reports: RhizaHealth[] = []

  private refuse(key: string, params: Record<string, unknown>): Refusal {
    return { ok: false, refusal: { domain: this.refusalDomain, key: `refusal.${key}`, params } }
  }

  /** How restrictions.manage and locale.manage refuse: they reject rather than resolve. */
  private reject(key: string, params: Record<string, unknown>): never {
    throw new RefusalError(this.refuse(key, params).refusal)
  }

  private person(id: string, change: (person: Person) => void): Outcome {
    const person = this.people.get(id)
    if (person === undefined) return this.refuse('unknownPrincipal', { id })
    change(person)
    return done
  }

  private installed<R>(name: string, then: (settings: Record<string, unknown>) => R): R | Refusal {
    const settings = this.stored.get(name)
    return settings === undefined ? this.refuse('unknownPlugin', { plugin: name }) : then(settings)
  }

  listPlugins(): readonly PluginInfo[] {
    return this.plugins
  }
  async health(): Promise<readonly RhizaHealth[]> {
    return this.reports
  }

  async listPrincipals(): Promise<readonly PrincipalInfo[]> {
    return [...this.people.values()].map((person) => ({
      ...person,
      identities: [{ channel: 'console', externalId: person.id.slice(2) }],
      createdAt: new Date(0),
    }))
  }
  async getPrincipal(id: string): Promise<PrincipalInfo | null> {
    return (await this.listPrincipals()).find((person) => person.id === id) ?? null
  }
  async findByIdentity(channel: string, externalId: string): Promise<PrincipalInfo | null> {
    const all = await this.listPrincipals()
    return (
      all.find((p) => p.identities.some((i) => i.channel === channel && i.externalId === externalId)) ?? null
    )
  }
  async markReviewed(id: string): Promise<Outcome> {
    return this.person(id, (person) => {
      person.reviewed = true
    })
  }
  async setDisplayName(id: string, displayName: string): Promise<Outcome> {
    return this.person(id, (person) => {
      person.displayName = displayName
    })
  }

  async listRoles(): Promise<readonly RoleInfo[]> {
    return [...this.roles].map(([name, role]) => ({ name, ...role }))
  }
  async rolesOf(principalId: string): Promise<readonly string[]> {
    return this.people.get(principalId)?.roles ?? []
  }
  async assignRole(principalId: string, roleName: string): Promise<Outcome> {
    if (!this.roles.has(roleName)) return this.refuse('unknownRole', { role: roleName })
    return this.person(principalId, (person) => {
      if (!person.roles.includes(roleName)) person.roles.push(roleName)
    })
  }
  async revokeRole(principalId: string, roleName: string): Promise<Outcome> {
    if (!this.roles.has(roleName)) return this.refuse('unknownRole', { role: roleName })
    return this.person(principalId, (person) => {
      person.roles = person.roles.filter((role) => role !== roleName)
    })
  }
  async createRole(name: string, patterns: readonly string[]): Promise<Outcome> {
    if (this.roles.has(name)) return this.refuse('roleTaken', { role: name })
    const twice = patterns.find((pattern, index) => patterns.indexOf(pattern) !== index)
    if (twice !== undefined) return this.refuse('patternTwice', { pattern: twice })
    this.roles.set(name, { patterns: [...patterns], builtin: false })
    return done
  }
  async setRoleCommands(name: string, patterns: readonly string[]): Promise<Outcome> {
    const role = this.roles.get(name)
    if (role === undefined) return this.refuse('unknownRole', { role: name })
    if (role.builtin) return this.refuse('builtinRole', { role: name })
    role.patterns = [...patterns]
    return done
  }
  async deleteRole(name: string): Promise<Outcome> {
    const role = this.roles.get(name)
    if (role === undefined) return this.refuse('unknownRole', { role: name })
    if (role.builtin) return this.refuse('builtinRole', { role: name })
    this.roles.delete(name)
    return done
  }

  async enable(name: string): Promise<Outcome> {
    return this.installed(name, (settings) => {
      if (name === 'radarr' && settings.apiKey === undefined) {
        return this.refuse('incomplete', { issues: 'apiKey: Required' })
      }
      this.toggle(name, true)
      return done
    })
  }
  async disable(name: string): Promise<Outcome> {
    return this.installed(name, () => {
      this.toggle(name, false)
      return done
    })
  }
  /** Reloads happen; this fake keeps the state it had, as a reload whose new code loads does. */
  readonly reloaded: string[] = []
  async reload(name: string): Promise<Outcome> {
    return this.installed(name, () => {
      this.reloaded.push(name)
      return done
    })
  }
  private toggle(name: string, enabled: boolean): void {
    const index = this.plugins.findIndex((plugin) => plugin.name === name)
    const plugin = this.plugins[index]
    if (plugin !== undefined)
      this.plugins[index] = { ...plugin, enabled, state: enabled ? 'live' : 'disabled' }
  }
  async settings(name: string): Promise<OutcomeOf<Record<string, unknown>>> {
    return this.installed(name, (settings) => {
      const secret = this.secrets.get(name) ?? []
      const shown = Object.entries(settings).map(([key, value]) => [
        key,
        secret.includes(key) ? SECRET_MASK : value,
      ])
      return { ok: true, value: Object.fromEntries(shown) }
    })
  }
  async setSetting(name: string, key: string, value: unknown): Promise<Outcome> {
    return this.installed(name, (settings) => {
      if (name === 'radarr' && !['url', 'apiKey', 'tags'].includes(key)) {
        return this.refuse('undeclaredKey', { plugin: name, key })
      }
      if (!(value === SECRET_MASK && this.secrets.get(name)?.includes(key))) settings[key] = value
      return done
    })
  }
  async unsetSetting(name: string, key: string): Promise<Outcome> {
    return this.installed(name, (settings) => {
      if (!(key in settings)) return this.refuse('settingAbsent', { plugin: name, key })
      delete settings[key]
      return done
    })
  }
  async formSchema(name: string): Promise<FormSchema> {
    if (name === 'tuner') return { available: true, schema: TUNER_SCHEMA, secrets: [] }
    if (name !== 'radarr') return { available: false, reason: `${name} publishes no JSON Schema` }
    const schema = {
      type: 'object',
      properties: {
        url: { type: 'string', format: 'uri', description: 'Where Radarr listens' },
        apiKey: { type: 'string' },
        quality: { enum: ['sd', 'hd'], default: 'sd' },
        tags: { type: 'array', items: { type: 'string' } },
        retries: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
      },
      required: ['url', 'apiKey', 'quality'],
    }
    return { available: true, schema, secrets: ['apiKey'] }
  }

  async broadcast(content: OutgoingContent): Promise<readonly BroadcastResult[]> {
    return this.targets.map((target) => {
      if (this.unreachable.has(target.conversationId)) return { target, ok: false, error: 'unreachable' }
      this.sent.push({ target, content })
      return { target, ok: true }
    })
  }
  async listConversations(): Promise<readonly ConversationInfo[]> {
    return this.conversations
  }

  async listContextRules(): Promise<readonly ContextRule[]> {
    return [...this.rules].map(([command, allowed]) => ({
      pattern: command,
      where: allowed,
      command,
      allowed,
    }))
  }
  async setContextRule(pattern: string, where: ContextRuleWhere): Promise<void> {
    if (!pattern.includes('.')) this.reject('unknownCommand', { command: pattern })
    this.rules.set(pattern, typeof where === 'string' ? [where] : where)
  }
  async clearContextRule(pattern: string): Promise<void> {
    this.rules.delete(pattern)
  }
  async inhibitorChannels(inhibitor: string): Promise<readonly string[]> {
    return this.confinement.get(inhibitor) ?? this.reject('unknownInhibitor', { inhibitor })
  }
  async setInhibitorChannels(inhibitor: string, channels: readonly string[]): Promise<void> {
    if (!this.confinement.has(inhibitor)) this.reject('unknownInhibitor', { inhibitor })
    this.confinement.set(inhibitor, channels)
  }
  confineInhibitor(inhibitor: string, channels: readonly string[]): Promise<void> {
    return this.setInhibitorChannels(inhibitor, channels)
  }
  async listBroadcastTargets(): Promise<readonly PushTarget[]> {
    return this.targets
  }
  async addBroadcastTarget(target: PushTarget): Promise<void> {
    if (this.targets.some(sameTarget(target))) this.reject('targetTaken', { ...target })
    this.targets.push(target)
  }
  async removeBroadcastTarget(target: PushTarget): Promise<void> {
    const index = this.targets.findIndex(sameTarget(target))
    if (index < 0) this.reject('unknownTarget', { ...target })
    this.targets.splice(index, 1)
  }

  /** The codes handed out by loginCode(), newest last. */
  readonly loginCodes: string[] = []
  async loginCode(): Promise<OutcomeOf<WebLoginCode>> {
    const code = `CODE${this.loginCodes.length + 1}`
    this.loginCodes.push(code)
    return {
      ok: true,
      value: { code, url: 'http://127.0.0.1:8780/login', expiresAt: Date.now() + 10 * 60_000 },
    }
  }

  async setPrincipalLocale(principalId: string, locale: string): Promise<void> {
    const person = this.people.get(principalId)
    if (person === undefined) return this.reject('unknownPrincipal', { id: principalId })
    person.locale = locale
  }
  async setConversationLocale(channel: string, conversationId: string, locale: string): Promise<void> {
    const known = this.conversations.some((c) => c.channel === channel && c.conversationId === conversationId)
    if (!known) this.reject('unknownConversation', { channel, conversationId })
    this.conversationLocales.set(`${channel} ${conversationId}`, locale)
  }
  availableLocales(): readonly string[] {
    return ['en', 'fr']
  }
}
