import { type PluginInfo, type PluginsRead, type PluginsToggle, septumIncompatibility } from '@mycelo/septum'
import { audited } from '../audit/audited.ts'
import { DISABLED_REASON, type GerminatedSpore } from '../germination/index.ts'
import { readManifest } from '../germination/manifest-reading.ts'
import { hostKeeper } from '../hosts/keeper.ts'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import type { PluginStore } from '../store/index.ts'
import { installRecords } from '../store/install-rows.ts'
import { lockoutRefusal } from './lockout.ts'
import { DONE, refused } from './outcome.ts'
import { checkStoredSettings, withConfigSchema } from './plugin-schema.ts'
import { readerLocale, reasonForReader } from './reader-locale.ts'
import { describedIn } from './spore-description.ts'

/**
 * A spore's state and reason as its reader sees them: the supervisor's word over germination's (a
 * channel reaching nothing is not live), worded in the reader's language. Every surface that shows
 * a spore's state reads it here.
 */
export function standing(
  runtime: CoreRuntime,
  spore: {
    readonly name: string
    readonly state: GerminatedSpore['state']
    readonly reason?: string | undefined
  },
): { readonly state: GerminatedSpore['state']; readonly reason?: string } {
  const down = spore.state === 'disabled' ? undefined : runtime.supervisor.notLive(spore.name)
  const state = down === undefined ? spore.state : 'dormant'
  const read = spore.reason === undefined ? undefined : reasonForReader(runtime.translator, spore.reason)
  // The supervisor's words quote germination's reason: that part is worded for the reader too.
  const reason = down === undefined ? read : spore.reason && read ? down.replace(spore.reason, read) : down
  return reason ? { state, reason } : { state }
}

/** How a spore runs, and what its host went through: what every surface shows beside its state. */
export function hostingOf(spore: { readonly name: string; readonly dir: string }): {
  isolation?: 'worker' | 'inline'
  restarted?: { count: number; reason: string }
} {
  if (spore.dir === '') return {}
  const record = hostKeeper.recordOf(spore.name)
  return {
    isolation: hostKeeper.isolationOf(spore.name, spore.dir),
    ...(record?.lastFault ? { restarted: { count: record.restarts, reason: record.lastFault } } : {}),
  }
}

/** plugins.read: every discovered spore, as germination left it and as its install row now reads. */
export function pluginsRead(runtime: CoreRuntime): PluginsRead {
  return {
    listPlugins(): readonly PluginInfo[] {
      const rows = installRecords(runtime.store)
      const locale = readerLocale(runtime.translator.defaultLocale)
      // A spore installed or found since start-up is in the germination already: a rescan put it there.
      return [...runtime.germination.spores]
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
        .map((spore) => {
          const row = rows.get(spore.name)
          // The supervisor's word over germination's: a channel reaching nothing is not live.
          const { state, reason } = standing(runtime, spore)
          const description = describedIn(
            runtime.translator,
            { name: spore.name, description: spore.manifest?.description },
            locale,
          )
          return {
            name: spore.name,
            ...(spore.kind ? { kind: spore.kind } : {}),
            state,
            // The row, not the state: a spore enabled but dormant says both.
            enabled: row?.enabled ?? spore.state !== 'disabled',
            ...(reason ? { reason } : {}),
            ...(description ? { description } : {}),
            ...(row?.source ? { source: row.source } : {}),
            ...(row?.strain ? { strain: row.strain } : {}),
            ...hostingOf(spore),
          }
        })
    },
  }
}

/**
 * plugins.toggle: flips the install row and applies it to the running bot at once: enable()
 * germinates and starts the spore and what waited on it; disable() stops it and what needs it.
 * enable() first runs every
 * check that would leave the spore dormant for a fault an operator can fix before it starts — its
 * manifest, its septum range, and its stored settings against its own schema — and refuses while
 * the row is still off.
 */
export function pluginsToggle(runtime: CoreRuntime, plugins: PluginStore): PluginsToggle {
  return audited(runtime, 'plugins.toggle', {
    async enable(name) {
      const spore = runtime.germination.byName.get(name)
      if (spore === undefined) return refused('plugin_unknown', { plugin: name })
      // Read afresh: a disabled spore's row may carry an operator's reason, not its manifest's.
      const reading = await readManifest(spore.dir)
      const { manifest } = reading
      if (manifest === undefined) {
        return refused('manifest_refused', { plugin: name, reason: reading.refusal ?? 'unreadable' })
      }
      const excluded = septumIncompatibility(manifest.septum)
      if (excluded !== undefined) return refused('septum_excluded', { plugin: name, reason: excluded })
      const checked = await withConfigSchema(spore, manifest, async (schema) => {
        if (!schema.ok) return refused('configuration_unchecked', { plugin: name, reason: schema.reason })
        return checkStoredSettings(name, schema.schema, plugins.settingsOf(name), runtime.translator)
      })
      if (!checked.ok) return checked
      plugins.recordInstall(name, { enabled: true, reason: null })
      if (!runtime.lifecycle.active) return DONE
      const outcome = await runtime.lifecycle.enable(name)
      runtime.logger.info('plugin enabled', { plugin: name, ...outcome })
      return DONE
    },

    async disable(name) {
      if (!runtime.germination.byName.has(name)) return refused('plugin_unknown', { plugin: name })
      const locked = lockoutRefusal(runtime, { kind: 'disable', plugin: name })
      if (locked) return locked
      plugins.recordInstall(name, { enabled: false, reason: DISABLED_REASON })
      if (!runtime.lifecycle.active) return DONE
      const outcome = await runtime.lifecycle.disable(name)
      runtime.logger.info('plugin disabled', { plugin: name, ...outcome })
      return DONE
    },

    async rescan() {
      const { found, refused } = await runtime.lifecycle.rescan()
      if (found.length > 0 || refused.length > 0) runtime.logger.info('spores rescanned', { found, refused })
      return { ok: true, value: { found, refused: refused.map(({ name, reason }) => ({ name, reason })) } }
    },

    async reload(name) {
      const spore = runtime.germination.byName.get(name)
      if (spore === undefined) return refused('plugin_unknown', { plugin: name })
      if (spore.state === 'disabled') return refused('plugin_disabled', { plugin: name })
      // Without a running bot there is nothing to reload: its start reads everything afresh anyway.
      if (!runtime.lifecycle.active) return DONE
      const outcome = await runtime.lifecycle.restart(name, { fresh: true })
      runtime.logger.info('plugin reloaded', { plugin: name, ...outcome })
      // Otherwise the new state (live, or dormant and why) is what plugins.read now shows.
      if (!outcome.kept) return DONE
      return refused('reload_failed', { plugin: name, reason: outcome.reason ?? 'unknown' })
    },
  })
}
