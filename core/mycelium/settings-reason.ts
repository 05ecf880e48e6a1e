import type { ConfigSchema } from '@mycelo/septum'
import { checkConfiguration } from '../germination/configuration.ts'
import type { GerminatedSpore } from '../germination/index.ts'
import { constantReason } from '../i18n/reason-words.ts'
import type { PluginStore } from '../store/index.ts'

/** Shown, with the bot stopped, once the settings that kept a spore dormant validate (a running bot restarts it at once). */
export const SETTINGS_NOW_VALID_DORMANT = constantReason(
  'settingsValidDormant',
  'its settings now validate; it starts when the bot starts',
)
/** Shown once the settings that kept a spore off at the first start validate; its row is still off. */
export const SETTINGS_NOW_VALID_DISABLED = constantReason(
  'settingsValidDisabled',
  'its settings now validate; enable it to start it',
)

const NOW_VALID: ReadonlySet<string> = new Set([SETTINGS_NOW_VALID_DORMANT, SETTINGS_NOW_VALID_DISABLED])

export interface RecheckOptions {
  readonly spore: GerminatedSpore
  readonly plugins: PluginStore
  readonly schema: ConfigSchema | undefined
  /** The stored settings before the write. */
  readonly before: Readonly<Record<string, unknown>>
}

/**
 * After a settings write, re-words a reason that was about the settings, so neither the report nor
 * `plugins.read` shows issues the operator has fixed. A reason is about the settings when it is
 * what the settings before the write gave (or what this wrote last time); any other reason — a
 * start() that failed, an operator's disable — is left as it is.
 */
export async function recheckSettingsReason({
  spore,
  plugins,
  schema,
  before,
}: RecheckOptions): Promise<void> {
  const shown = spore.reason
  if (shown === undefined || spore.state === 'live') return
  const was = await checkConfiguration(schema, { ...before }, spore.name)
  if (!(was.ok ? NOW_VALID.has(shown) : shown === was.reason)) return
  const now = await checkConfiguration(schema, plugins.settingsOf(spore.name), spore.name)
  const reason = now.ok
    ? spore.state === 'dormant'
      ? SETTINGS_NOW_VALID_DORMANT
      : SETTINGS_NOW_VALID_DISABLED
    : now.reason
  spore.reason = reason
  // The first start records a spore it kept off with this same reason, which the next start shows.
  const row = plugins.installOf(spore.name)
  if (row !== undefined && !row.enabled && row.reason === shown) {
    plugins.recordInstall(spore.name, { enabled: false, reason })
  }
}
