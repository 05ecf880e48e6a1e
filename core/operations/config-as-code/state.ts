// The operator's state as the configuration file spells it, read through the mycelium's own
// reads (secrets masked) unless the operator asked for secrets.
import { asc } from 'drizzle-orm'
import type { z } from 'zod'
import { pluginsConfigure } from '../../mycelium/configure.ts'
import { pluginsRead } from '../../mycelium/plugins.ts'
import { restrictionOutcomes } from '../../mycelium/restrictions.ts'
import { rolesRead } from '../../mycelium/roles.ts'
import type { CoreRuntime } from '../../rhizomorph/runtime.ts'
import { sourceRows } from '../../sporangium/source-rows.ts'
import { sourceOutcomes } from '../../sporangium/sources.ts'
import { listEntries, sporesWithData } from '../../storage/rows.ts'
import { holdersOf, listRoleInfos, roleNamed } from '../../store/role-admin.ts'
import { channelIdentities } from '../../store/schema/index.ts'
import type { ConfigDocument } from './document.ts'

type Settings = ConfigDocument['plugins'][string]['settings']

export async function readState(
  runtime: CoreRuntime,
  options: { secrets: boolean; data?: boolean },
): Promise<ConfigDocument> {
  const configure = pluginsConfigure(runtime, runtime.plugins)
  const plugins: ConfigDocument['plugins'] = {}
  for (const plugin of pluginsRead(runtime).listPlugins()) {
    const read = await configure.settings(plugin.name)
    const masked = read.ok ? read.value : {}
    const settings = options.secrets ? runtime.plugins.settingsOf(plugin.name) : masked
    // Stored settings are JSON values already: the store refuses anything else.
    plugins[plugin.name] = { enabled: plugin.enabled, settings: sorted(settings) as Settings }
  }
  const roles: ConfigDocument['roles'] = {}
  const grants: ConfigDocument['grants'] = {}
  const name = identityNames(runtime)
  for (const role of await rolesRead(runtime).listRoles()) {
    if (role.builtin) continue
    roles[role.name] = [...role.patterns]
  }
  for (const role of listRoleInfos(runtime.store)) {
    const id = roleNamed(runtime.store, role.name)!.id
    const holders = holdersOf(runtime.store, id).map(name).sort()
    if (holders.length > 0) grants[role.name] = holders
  }
  const manage = restrictionOutcomes(runtime)
  const rules: ConfigDocument['rules'] = {}
  for (const rule of await manage.listContextRules()) rules[rule.command] = [...rule.allowed]
  const confinement: ConfigDocument['confinement'] = {}
  for (const spore of runtime.germination.spores) {
    if (spore.kind !== 'inhibitor') continue
    const channels = runtime.restrictions.confinedTo(spore.name)
    if (channels.length > 0) confinement[spore.name] = [...channels].sort()
  }
  const broadcast = (await manage.listBroadcastTargets())
    .map((target) => ({ channel: target.channel, conversation: target.conversationId }))
    .sort((a, b) => `${a.channel}\0${a.conversation}`.localeCompare(`${b.channel}\0${b.conversation}`))
  const tokens = new Map(sourceRows(runtime.store).map((row) => [row.id, row.token]))
  const sources: ConfigDocument['sources'] = {}
  for (const source of await sourceOutcomes({ store: runtime.store, config: runtime.config }).listSources()) {
    const token = options.secrets ? (tokens.get(source.id) ?? undefined) : source.token
    sources[source.id] = {
      label: source.label,
      url: source.url,
      enabled: source.enabled,
      ...(token ? { token } : {}),
      ...(source.publisherKey ? { publisherKey: source.publisherKey } : {}),
    }
  }
  return {
    plugins,
    roles: sorted(roles),
    grants: sorted(grants),
    rules,
    confinement: sorted(confinement),
    broadcast,
    sources: sorted(sources),
    ...(options.data ? { data: storedData(runtime) } : {}),
  }
}

/** Every spore's stored entries, spores and keys in order. */
function storedData(runtime: CoreRuntime): NonNullable<ConfigDocument['data']> {
  const data: NonNullable<ConfigDocument['data']> = {}
  for (const spore of sporesWithData(runtime.store)) {
    const entries: Record<string, z.core.util.JSONType> = {}
    for (const row of listEntries(runtime.store.db, spore, '')) entries[row.key] = JSON.parse(row.value)
    data[spore] = entries
  }
  return data
}

/** A principal as an operator knows them: their first channel identity, else their id. */
function identityNames(runtime: CoreRuntime): (principalId: string) => string {
  const rows = runtime.store.db
    .select()
    .from(channelIdentities)
    .orderBy(asc(channelIdentities.channel), asc(channelIdentities.externalId))
    .all()
  const first = new Map<string, string>()
  for (const row of rows)
    if (!first.has(row.principalId)) first.set(row.principalId, `${row.channel}:${row.externalId}`)
  return (principalId) => first.get(principalId) ?? principalId
}

function sorted<T>(record: Readonly<Record<string, T>>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}
