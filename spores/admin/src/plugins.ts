import {
  COMMON_DOMAIN,
  type FormSchema,
  type PluginInfo,
  readSettingText,
  type SettingReading,
  settingProperty,
} from '@mycelo/septum'
import { answer, arg, listing, refusalText, say, shownValue, usage } from './answers.ts'
import { type AdminContext, type Handlers, myceliumOf } from './mycelium.ts'
import { formFields } from './settings-form.ts'

/** A spore's line, then what it is, in the reader's language (the core words its description). */
function pluginLine(plugin: PluginInfo, ctx: AdminContext): string {
  const line = stateLine(plugin, ctx)
  return plugin.description === undefined
    ? line
    : ctx.t('plugins.described', { line, description: plugin.description })
}

function stateLine(plugin: PluginInfo, ctx: AdminContext): string {
  const line = ctx.t('plugins.line', {
    name: plugin.name,
    // A manifest refused before its kind could be read leaves it unknown.
    kind: ctx.t('kind', { kind: plugin.kind ?? 'unknown' }),
    state: plugin.state,
  })
  const hosted = hostedLine(plugin, installedLine(plugin, line, ctx), ctx)
  // Enabled yet not running (or the reverse) only while a change is being applied.
  const running = plugin.state !== 'disabled'
  if (plugin.enabled !== running)
    return ctx.t('plugins.pending', { line: hosted, enabled: String(plugin.enabled) })
  return plugin.reason === undefined
    ? hosted
    : ctx.t('plugins.because', { line: hosted, reason: plugin.reason })
}

/** An installed spore names the strain and the source it came from; a local one has neither. */
function installedLine(plugin: PluginInfo, line: string, ctx: AdminContext): string {
  if (plugin.source === undefined || plugin.strain === undefined) return line
  return ctx.t('plugins.installed', { line, strain: plugin.strain, source: plugin.source })
}

/** A spore in a host says so, and what its host went through. */
function hostedLine(plugin: PluginInfo, line: string, ctx: AdminContext): string {
  if (plugin.isolation !== 'worker') return line
  const isolated = ctx.t('plugins.isolated', { line })
  if (plugin.restarted === undefined) return isolated
  return ctx.t('plugins.restarted', { line: isolated, ...plugin.restarted })
}

/** Where a plugin stands now that a change has been applied: live, or dormant and why. */
function standing(ctx: AdminContext, plugin: string): { state: string; reason: string } {
  const info = myceliumOf(ctx)
    .listPlugins()
    .find((candidate) => candidate.name === plugin)
  return { state: info?.state ?? 'dormant', reason: info?.reason ?? '' }
}

/** Why a typed value could not be read as the setting's type. */
function unreadable(
  reading: Extract<SettingReading, { ok: false }>,
  names: { plugin: string; key: string },
  ctx: AdminContext,
): string {
  // Worded in `common`, so the command line says it the same way.
  return reading.problem === 'tooLarge'
    ? ctx.t({ domain: COMMON_DOMAIN, key: 'setting.tooLarge', params: names })
    : ctx.t({
        domain: COMMON_DOMAIN,
        key: 'setting.unreadable',
        params: { ...names, expected: reading.expected },
      })
}

function formText(plugin: string, form: FormSchema, ctx: AdminContext): string {
  if (!form.available) return ctx.t('form.unavailable', { plugin, reason: form.reason })
  const lines = formFields(form, ctx)
  return listing(ctx.t('form.title', { plugin }), lines, ctx.t('form.empty', { plugin }))
}

/** Plugins, their health, their on/off switch and their settings. */
export const pluginHandlers: Handlers = {
  async plugins(_invocation, ctx) {
    const plugins = myceliumOf(ctx).listPlugins()
    const lines = plugins.map((plugin) => pluginLine(plugin, ctx))
    await say(ctx, listing(ctx.t('plugins.title', { count: plugins.length }), lines, ctx.t('plugins.empty')))
  },

  async health(_invocation, ctx) {
    const reports = await myceliumOf(ctx).health()
    const lines = reports.map((report) =>
      report.detail === undefined
        ? ctx.t('health.line', { name: report.name, state: report.state })
        : ctx.t('health.detailed', { name: report.name, state: report.state, detail: report.detail }),
    )
    await say(ctx, listing(ctx.t('health.title'), lines, ctx.t('health.empty')))
  },

  async enable(invocation, ctx) {
    const plugin = arg(invocation, 'spore')
    if (plugin === undefined) return usage(invocation, ctx)
    const outcome = await myceliumOf(ctx).enable(plugin)
    await answer(ctx, outcome, () => ctx.t('enable.done', { plugin, ...standing(ctx, plugin) }))
  },

  async disable(invocation, ctx) {
    const plugin = arg(invocation, 'spore')
    if (plugin === undefined) return usage(invocation, ctx)
    const outcome = await myceliumOf(ctx).disable(plugin)
    await answer(ctx, outcome, () => ctx.t('disable.done', { plugin }))
  },

  async rescan(_invocation, ctx) {
    const mycelium = myceliumOf(ctx)
    if (mycelium.rescan === undefined) return say(ctx, ctx.t('rescan.unsupported'))
    const outcome = await mycelium.rescan()
    if (!outcome.ok) return say(ctx, refusalText(ctx, outcome.refusal))
    const { found, refused } = outcome.value
    const lines = [
      ...found.map(({ name, state, reason }) =>
        reason === undefined
          ? ctx.t('rescan.found', { name, state })
          : ctx.t('rescan.because', { name, state, reason }),
      ),
      ...refused.map(({ name, reason }) => ctx.t('rescan.refused', { name, reason })),
    ]
    await say(ctx, listing(ctx.t('rescan.title', { count: lines.length }), lines, ctx.t('rescan.none')))
  },

  async reload(invocation, ctx) {
    const plugin = arg(invocation, 'spore')
    if (plugin === undefined) return usage(invocation, ctx)
    const mycelium = myceliumOf(ctx)
    // Optional in the contract: a core older than reload has none.
    if (mycelium.reload === undefined) return say(ctx, ctx.t('reload.unsupported'))
    const outcome = await mycelium.reload(plugin)
    await answer(ctx, outcome, () => ctx.t('reload.done', { plugin, ...standing(ctx, plugin) }))
  },

  async settings(invocation, ctx) {
    const plugin = arg(invocation, 'spore')
    if (plugin === undefined) return usage(invocation, ctx)
    const outcome = await myceliumOf(ctx).settings(plugin)
    if (!outcome.ok) return say(ctx, refusalText(ctx, outcome.refusal))
    const lines = Object.entries(outcome.value).map(([key, value]) =>
      ctx.t('settings.line', { key, value: shownValue(value) }),
    )
    await say(ctx, listing(ctx.t('settings.title', { plugin }), lines, ctx.t('settings.empty', { plugin })))
  },

  async set(invocation, ctx) {
    const plugin = arg(invocation, 'spore')
    const key = arg(invocation, 'key')
    const text = arg(invocation, 'value')
    if (plugin === undefined || key === undefined || text === undefined) return usage(invocation, ctx)
    const mycelium = myceliumOf(ctx)
    const property = settingProperty(await mycelium.formSchema(plugin), key)
    const reading = readSettingText(text, invocation.rest, property)
    if (!reading.ok) return say(ctx, unreadable(reading, { plugin, key }, ctx))
    const outcome = await mycelium.setSetting(plugin, key, reading.value)
    await answer(ctx, outcome, () => ctx.t('set.done', { plugin, key, ...standing(ctx, plugin) }))
  },

  async unset(invocation, ctx) {
    const plugin = arg(invocation, 'spore')
    const key = arg(invocation, 'key')
    if (plugin === undefined || key === undefined) return usage(invocation, ctx)
    const outcome = await myceliumOf(ctx).unsetSetting(plugin, key)
    await answer(ctx, outcome, () => ctx.t('unset.done', { plugin, key, ...standing(ctx, plugin) }))
  },

  async form(invocation, ctx) {
    const plugin = arg(invocation, 'spore')
    if (plugin === undefined) return usage(invocation, ctx)
    await say(ctx, formText(plugin, await myceliumOf(ctx).formSchema(plugin), ctx))
  },
}
