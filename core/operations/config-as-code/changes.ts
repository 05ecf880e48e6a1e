// What an import would change: the current state against the file, as a list of changes, each
// one call of the mycelium function chat uses for it, in an order where each finds what it needs
// (roles before their grants, plugins before their settings).
import { type Outcome, SECRET_MASK, StorageError } from '@mycelo/septum'
import { pluginsConfigure } from '../../mycelium/configure.ts'
import { refused } from '../../mycelium/outcome.ts'
import { pluginsToggle } from '../../mycelium/plugins.ts'
import { principalNamed } from '../../mycelium/principals.ts'
import { restrictionOutcomes } from '../../mycelium/restrictions.ts'
import { rolesAssign, rolesManage } from '../../mycelium/roles.ts'
import { sourceManageOutcomes } from '../../mycelium/sources.ts'
import type { CoreRuntime } from '../../rhizomorph/runtime.ts'
import { sourceRows } from '../../sporangium/source-rows.ts'
import { TOKEN_MASK } from '../../sporangium/sources.ts'
import type { ConfigDocument } from './document.ts'

export interface Change {
  /** Where in the file it comes from, for the line a refusal names. */
  readonly path: readonly (string | number)[]
  /** `+ path: value`, `- path` or `~ path: before → after`: syntax, like a diff. */
  readonly text: string
  apply(): Promise<Outcome>
}

const show = (value: unknown) => JSON.stringify(value)
const same = (a: unknown, b: unknown) => show(a) === show(b)

export function changesOf(
  runtime: CoreRuntime,
  currentState: ConfigDocument,
  wantedState: ConfigDocument,
): Change[] {
  // Looked up by names from the file: `toString` must find an entry or nothing, never a prototype's.
  const current = withoutPrototypes(currentState)
  const wanted = withoutPrototypes(wantedState)
  const changes: Change[] = []
  const add = (path: (string | number)[], text: string, apply: () => Promise<Outcome>) =>
    changes.push({ path, text, apply })
  const configure = pluginsConfigure(runtime, runtime.plugins)
  const toggle = pluginsToggle(runtime, runtime.plugins)
  const roles = rolesManage(runtime)
  const assign = rolesAssign(runtime)
  const manage = restrictionOutcomes(runtime)
  // The audited sources.manage, as chat and the CLI call it: an imported source change is logged too.
  const sources = sourceManageOutcomes(runtime)
  const where = (...path: (string | number)[]) => path.join('.')

  for (const [name, role] of Object.entries(wanted.roles)) {
    const before = current.roles[name]
    if (before === undefined)
      add(['roles', name], `+ ${where('roles', name)}: ${show(role)}`, () => roles.createRole(name, role))
    else if (!same([...before].sort(), [...role].sort()))
      add(['roles', name], `~ ${where('roles', name)}: ${show(before)} → ${show(role)}`, () =>
        roles.setRoleCommands(name, role),
      )
  }
  // Settings first, then the toggle: enabling checks the settings it will start with.
  for (const [plugin, entry] of Object.entries(wanted.plugins)) {
    const before = current.plugins[plugin]?.settings ?? {}
    const stored = withoutPrototypes(runtime.plugins.settingsOf(plugin))
    for (const [key, value] of Object.entries(entry.settings)) {
      if (value === SECRET_MASK || same(stored[key], value)) continue
      const path = ['plugins', plugin, 'settings', key]
      // A secret is never printed: the diff says it changes, not to what.
      const shown = before[key] === SECRET_MASK ? SECRET_MASK : show(value)
      const text =
        key in before
          ? `~ ${where(...path)}: ${show(before[key])} → ${shown}`
          : `+ ${where(...path)}: ${shown}`
      add(path, text, () => configure.setSetting(plugin, key, value))
    }
    for (const key of Object.keys(before).filter((key) => !(key in entry.settings)))
      add(['plugins', plugin, 'settings'], `- ${where('plugins', plugin, 'settings', key)}`, () =>
        configure.unsetSetting(plugin, key),
      )
    const was = current.plugins[plugin]?.enabled
    if (was !== entry.enabled) {
      const path = ['plugins', plugin, 'enabled']
      const text =
        was === undefined
          ? `+ ${where(...path)}: ${entry.enabled}`
          : `~ ${where(...path)}: ${was} → ${entry.enabled}`
      add(path, text, () => (entry.enabled ? toggle.enable(plugin) : toggle.disable(plugin)))
    }
  }
  for (const role of new Set([...Object.keys(current.grants), ...Object.keys(wanted.grants)])) {
    const before = current.grants[role] ?? []
    const after = wanted.grants[role] ?? []
    for (const who of after.filter((who) => !before.includes(who)))
      add(['grants', role], `+ ${where('grants', role)}: ${who}`, () =>
        assign.assignRole(principalNamed(runtime.store, who), role),
      )
    for (const who of before.filter((who) => !after.includes(who)))
      add(['grants', role], `- ${where('grants', role)}: ${who}`, () =>
        assign.revokeRole(principalNamed(runtime.store, who), role),
      )
  }
  for (const command of new Set([...Object.keys(current.rules), ...Object.keys(wanted.rules)])) {
    const before = current.rules[command]
    const after = wanted.rules[command]
    if (after === undefined)
      add(['rules'], `- ${where('rules', command)}`, () => manage.clearContextRule(command))
    else if (!same(before, after))
      add(['rules', command], `${before ? '~' : '+'} ${where('rules', command)}: ${show(after)}`, () =>
        manage.setContextRule(command, after),
      )
  }
  for (const inhibitor of new Set([
    ...Object.keys(current.confinement),
    ...Object.keys(wanted.confinement),
  ])) {
    const after = wanted.confinement[inhibitor] ?? []
    if (same(current.confinement[inhibitor] ?? [], [...after].sort())) continue
    add(['confinement', inhibitor], `~ ${where('confinement', inhibitor)}: ${show(after)}`, () =>
      manage.confineInhibitor(inhibitor, after),
    )
  }
  const key = (target: { channel: string; conversation: string }) =>
    `${target.channel} ${target.conversation}`
  const had = new Set(current.broadcast.map(key))
  const keep = new Set(wanted.broadcast.map(key))
  wanted.broadcast.forEach((target, index) => {
    if (had.has(key(target))) return
    add(['broadcast', index], `+ broadcast: ${key(target)}`, () =>
      manage.addBroadcastTarget({ channel: target.channel, conversationId: target.conversation }),
    )
  })
  for (const target of current.broadcast.filter((target) => !keep.has(key(target))))
    add(['broadcast'], `- broadcast: ${key(target)}`, () =>
      manage.removeBroadcastTarget({ channel: target.channel, conversationId: target.conversation }),
    )
  const tokens = new Map(sourceRows(runtime.store).map((row) => [row.id, row.token ?? undefined]))
  for (const [id, source] of Object.entries(wanted.sources)) {
    const before = current.sources[id]
    // No token in the file removes the stored one; the mask keeps it.
    const patch = { ...source, token: source.token ?? '' }
    const outcome = (done: { ok: boolean }) => (done.ok ? { ok: true as const } : (done as Outcome))
    if (before === undefined) {
      add(['sources', id], `+ ${where('sources', id)}: ${source.url}`, async () =>
        outcome(await sources.addSource(patch)),
      )
      continue
    }
    const token = source.token === TOKEN_MASK ? tokens.get(id) : source.token
    const differs = (['label', 'url', 'enabled', 'publisherKey'] as const)
      .filter((field) => !same(before[field], source[field]))
      .map((field) => `${field} ${show(before[field])} → ${show(source[field])}`)
    // A token is never printed: the diff says it changes, not to what.
    if (token !== tokens.get(id))
      differs.push(source.token === undefined ? 'token removed' : `token ${TOKEN_MASK}`)
    if (differs.length === 0) continue
    add(['sources', id], `~ ${where('sources', id)}: ${differs.join(', ')}`, async () =>
      outcome(await sources.updateSource(id, patch)),
    )
  }
  dataChanges(runtime, current, wanted, add)
  return changes
}

/**
 * Each listed spore's entries made the whole list, through the spore's own storage: the same JSON
 * and quota rules as the spore itself meets (inside the import's transaction, as a savepoint).
 */
function dataChanges(
  runtime: CoreRuntime,
  current: ConfigDocument,
  wanted: ConfigDocument,
  add: (path: (string | number)[], text: string, apply: () => Promise<Outcome>) => void,
): void {
  for (const [spore, entries] of Object.entries(wanted.data ?? {})) {
    const before = current.data?.[spore] ?? {}
    const storage = runtime.holdings.storageOf(spore)
    const write = (work: Parameters<typeof storage.run>[0]) => async (): Promise<Outcome> => {
      try {
        storage.run(work)
        return { ok: true }
      } catch (error) {
        if (!(error instanceof StorageError)) throw error
        return refused('import_data_refused', { spore, reason: error.message })
      }
    }
    for (const [key, value] of Object.entries(entries)) {
      if (key in before && same(before[key], value)) continue
      const path = ['data', spore, key]
      const text =
        key in before
          ? `~ data.${spore}.${key}: ${brief(before[key])} → ${brief(value)}`
          : `+ data.${spore}.${key}: ${brief(value)}`
      add(
        path,
        text,
        write((tx) => tx.set(key, value)),
      )
    }
    for (const key of Object.keys(before).filter((key) => !(key in entries)))
      add(
        ['data', spore],
        `- data.${spore}.${key}`,
        write((tx) => void tx.delete(key)),
      )
  }
}

/** A stored value as a diff line shows it: its JSON, cut short. */
function brief(value: unknown): string {
  const text = show(value)
  return text.length > 60 ? `${text.slice(0, 59)}…` : text
}

/** A copy whose objects have no prototype, so a lookup by any name answers only what is there. */
function withoutPrototypes<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutPrototypes) as T
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype)
    return value
  const copy = Object.create(null) as Record<string, unknown>
  for (const [key, member] of Object.entries(value)) copy[key] = withoutPrototypes(member)
  return copy as T
}
