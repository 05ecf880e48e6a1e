import {
  type ConfigIssue,
  type ConfigSchema,
  type FormSchema,
  type PluginsConfigure,
  SECRET_MASK,
} from '@mycelo/septum'
import { audited } from '../audit/audited.ts'
import { checkConfiguration } from '../germination/configuration.ts'
import type { GerminatedSpore } from '../germination/index.ts'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import type { PluginStore } from '../store/index.ts'
import { lockoutRefusal } from './lockout.ts'
import { DONE, refused } from './outcome.ts'
import {
  acceptsKey,
  isSettingKey,
  judgeSetting,
  publishedJsonSchema,
  withConfigSchema,
} from './plugin-schema.ts'
import { readerLocale } from './reader-locale.ts'
import { labelledForm } from './setting-labels.ts'
import { recheckSettingsReason } from './settings-reason.ts'

/**
 * plugins.configure. A written value takes effect when its spore next starts: a live spore is
 * restarted in process at once, with its dependants, so that is now.
 * Secrets are read off the plugin's own module: a key it declares is written flagged, and a flagged
 * value is only ever read back as the mask.
 */
export function pluginsConfigure(runtime: CoreRuntime, plugins: PluginStore): PluginsConfigure {
  const sporeNamed = (name: string): GerminatedSpore | undefined => runtime.germination.byName.get(name)

  return audited(runtime, 'plugins.configure', {
    async settings(name) {
      if (!sporeNamed(name)) return refused('plugin_unknown', { plugin: name })
      const stored = plugins.settingsWithFlags(name)
      const value = Object.fromEntries(
        Object.entries(stored).map(([key, setting]) => [key, setting.secret ? SECRET_MASK : setting.value]),
      )
      return { ok: true, value }
    },

    async setSetting(name, key, value) {
      const spore = sporeNamed(name)
      if (!spore) return refused('plugin_unknown', { plugin: name })
      // A key no schema could name (a path, a control character, a prototype's) is refused for every
      // spore, before its schema is read: even a spore whose module cannot be read declares no such key.
      if (!isSettingKey(key)) return refused('setting_undeclared', { plugin: name, key: shownKey(key) })
      if (!isJsonValue(value)) return refused('setting_not_storable', { plugin: name, key })
      // A module that cannot be read declares nothing: no check is possible and the value is
      // stored unflagged, until a write made while the declaration is readable promotes it.
      const written = await withConfigSchema(spore, spore.manifest, async (reading) => {
        const schema = reading.ok ? reading.schema : undefined
        const published = publishedJsonSchema(schema)
        // A spore that declares no configuration has no setting at all.
        const declaresNothing = reading.ok && schema === undefined
        if (declaresNothing || (published.ok && !acceptsKey(published.schema, key))) {
          return refused('setting_undeclared', { plugin: name, key })
        }
        const secret = schema?.secrets?.includes(key) === true
        const stored = plugins.settingsWithFlags(name)
        // The mask on a secret key is ignored by the store: nothing changes, so nothing to judge.
        if (value === SECRET_MASK && (secret || stored[key]?.secret === true)) return 'unchanged'
        const before = plugins.settingsOf(name)
        const after = { ...before, [key]: value }
        const judged = await judgeSetting({
          schema,
          settings: after,
          key,
          word: (issue) => issueWords(runtime, name, issue),
        })
        if (!judged.ok) return refused('setting_invalid', { plugin: name, key, problems: judged.problems })
        const locked = lockoutRefusal(runtime, {
          kind: 'configure',
          plugin: name,
          valid: await settingsValidate(schema, after),
        })
        if (locked) return locked
        plugins.setSetting(name, key, value, { secret })
        await recheckSettingsReason({ spore, plugins, schema, before })
        return DONE
      })
      if (written === 'unchanged') return DONE
      if (written.ok) await restartIfRunning(runtime, name)
      return written
    },

    async unsetSetting(name, key) {
      const spore = sporeNamed(name)
      if (!spore) return refused('plugin_unknown', { plugin: name })
      const before = plugins.settingsOf(name)
      if (!Object.hasOwn(before, key)) return refused('setting_absent', { plugin: name, key })
      const { [key]: _removed, ...after } = before
      const removed = await withConfigSchema(spore, spore.manifest, async (reading) => {
        const schema = reading.ok ? reading.schema : undefined
        const locked = lockoutRefusal(runtime, {
          kind: 'configure',
          plugin: name,
          valid: await settingsValidate(schema, after),
        })
        if (locked) return locked
        plugins.unsetSetting(name, key)
        await recheckSettingsReason({ spore, plugins, schema, before })
        return DONE
      })
      if (removed.ok) await restartIfRunning(runtime, name)
      return removed
    },

    async formSchema(name): Promise<FormSchema> {
      try {
        const spore = sporeNamed(name)
        if (!spore) return { available: false, reason: `no plugin named "${name}" is installed` }
        return await withConfigSchema(spore, spore.manifest, async (reading): Promise<FormSchema> => {
          if (!reading.ok) return { available: false, reason: reading.reason }
          const published = publishedJsonSchema(reading.schema)
          if (!published.ok) return { available: false, reason: published.reason }
          const schema = labelledForm(published.schema, {
            spore: name,
            locale: readerLocale(runtime.translator.defaultLocale),
            translator: runtime.translator,
          })
          return { available: true, schema, secrets: [...(reading.schema?.secrets ?? [])] }
        })
      } catch (error) {
        // Never rejects: whatever went wrong is the reason there is no form.
        return { available: false, reason: error instanceof Error ? error.message : String(error) }
      }
    },
  })
}

/**
 * The spore starts again with the settings as now stored; one that is dormant is germinated again,
 * since a setting is the usual fix for its reason. A disabled one waits for its enable.
 */
async function restartIfRunning(runtime: CoreRuntime, name: string): Promise<void> {
  const state = runtime.germination.byName.get(name)?.state
  if (!runtime.lifecycle.active || state === undefined || state === 'disabled') return
  const outcome = await runtime.lifecycle.restart(name)
  runtime.logger.info('plugin restarted with its new settings', { plugin: name, ...outcome })
}

/**
 * Whether the value is JSON as it stands, so what is stored is what was written: JSON.stringify
 * would quietly turn a non-finite number or a hole into null, and a Date into text.
 */
function isJsonValue(value: unknown, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true
  if (typeof value === 'number') return Number.isFinite(value)
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      if (!(index in value) || !isJsonValue(value[index], depth + 1)) return false
    }
    return true
  }
  if (typeof value !== 'object') return false
  const prototype = Object.getPrototypeOf(value)
  if (prototype !== Object.prototype && prototype !== null) return false
  return Object.values(value).every((member) => isJsonValue(member, depth + 1))
}

/** Deeper than any setting needs; it also ends a cycle. */
const MAX_DEPTH = 64

/** Whether a whole set of settings passes the plugin's schema (no schema, or none readable: yes). */
async function settingsValidate(
  schema: ConfigSchema | undefined,
  settings: Record<string, unknown>,
): Promise<boolean> {
  return (await checkConfiguration(schema, settings)).ok
}

/**
 * One issue in the default locale: its messageKey when the catalogues know it (a bare key is the
 * plugin's own), its English message otherwise.
 */
function issueWords(runtime: CoreRuntime, plugin: string, issue: ConfigIssue): string {
  const { messageKey, params } = issue
  if (messageKey === undefined) return issue.message
  const ref =
    typeof messageKey === 'string'
      ? { domain: plugin, key: messageKey, ...(params ? { params } : {}) }
      : { ...messageKey, params: { ...messageKey.params, ...params } }
  const text = runtime.translator.render(ref, readerLocale(runtime.translator.defaultLocale))
  return text === ref.key ? issue.message : text
}

/** A refused key as an operator can read it: control characters written as escapes. */
function shownKey(key: string): string {
  return JSON.stringify(key.slice(0, 128)).slice(1, -1)
}
