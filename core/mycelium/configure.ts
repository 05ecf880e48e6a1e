import { type FormSchema, type PluginsConfigure, SECRET_MASK } from '@mycelo/septum'
import type { GerminatedSpore } from '../germination/index.ts'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import type { PluginStore } from '../store/index.ts'
import { DONE, refused } from './outcome.ts'
import { acceptsKey, publishedJsonSchema, readConfigSchema } from './plugin-schema.ts'

/**
 * plugins.configure. A written value takes effect at the next start, like every plugin setting.
 * Secrets are read off the plugin's own module: a key it declares is written flagged, and a flagged
 * value is only ever read back as the mask.
 */
export function pluginsConfigure(runtime: CoreRuntime, plugins: PluginStore): PluginsConfigure {
  const sporeNamed = (name: string): GerminatedSpore | undefined => runtime.germination.byName.get(name)

  return {
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
      if (!isJsonValue(value)) return refused('setting_not_storable', { plugin: name, key })
      // A module that cannot be read declares nothing: no key check is possible and the value is
      // stored unflagged, until a write made while the declaration is readable promotes it.
      const reading = await readConfigSchema(spore)
      const schema = reading.ok ? reading.schema : undefined
      const published = publishedJsonSchema(schema)
      if (published.ok && !acceptsKey(published.schema, key)) {
        return refused('setting_undeclared', { plugin: name, key })
      }
      const secret = schema?.secrets?.includes(key) === true
      plugins.setSetting(name, key, value, { secret })
      return DONE
    },

    async unsetSetting(name, key) {
      if (!sporeNamed(name)) return refused('plugin_unknown', { plugin: name })
      return plugins.unsetSetting(name, key) ? DONE : refused('setting_absent', { plugin: name, key })
    },

    async formSchema(name): Promise<FormSchema> {
      try {
        const spore = sporeNamed(name)
        if (!spore) return { available: false, reason: `no plugin named "${name}" is installed` }
        const reading = await readConfigSchema(spore)
        if (!reading.ok) return { available: false, reason: reading.reason }
        const published = publishedJsonSchema(reading.schema)
        if (!published.ok) return { available: false, reason: published.reason }
        return { available: true, schema: published.schema, secrets: [...(reading.schema?.secrets ?? [])] }
      } catch (error) {
        // Never rejects: whatever went wrong is the reason there is no form.
        return { available: false, reason: error instanceof Error ? error.message : String(error) }
      }
    },
  }
}

/** Whether the value survives the JSON the settings table stores. */
function isJsonValue(value: unknown): boolean {
  try {
    return JSON.stringify(value) !== undefined
  } catch {
    return false
  }
}
