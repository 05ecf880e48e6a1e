import type { Inoculation, Invocation, PluginInfo } from '@mycelo/septum'
import { arg, sibling, typed, usage } from './answers.ts'
import { type AdminContext, type Handlers, myceliumOf } from './mycelium.ts'
import { answerSettled } from './settled.ts'

/** What the operator reads once a strain is in place: what it asks for, and how to switch it on. */
function installedText(done: Inoculation, invocation: Invocation, ctx: AdminContext): string {
  const installed = inoculated(done.spore, ctx)
  const enable = `${sibling(invocation, 'enable')} ${done.spore}`
  const lines = [ctx.t('install.done', { spore: done.spore, strain: done.strain, source: done.source })]
  // The install row's reason is the core's account of the kind, requirements and scopes.
  if (installed?.reason !== undefined) lines.push(ctx.t('install.asks', { reason: installed.reason }))
  lines.push(
    installed?.enabled === true
      ? ctx.t('install.enabled', { spore: done.spore })
      : ctx.t('install.howToEnable', { enable }),
  )
  return lines.join('\n')
}

/** The installed spore as plugins.read lists it: its strain, its reason, whether it is enabled. */
function inoculated(spore: string, ctx: AdminContext): PluginInfo | undefined {
  return myceliumOf(ctx)
    .listPlugins()
    .find((plugin) => plugin.name === spore)
}

/** Installing from a source, upgrading, rolling back and uninstalling. */
export const installHandlers: Handlers = {
  async install(invocation, ctx) {
    const source = arg(invocation, 'source')
    const spore = arg(invocation, 'spore')
    const strain = arg(invocation, 'strain')
    if (source === undefined || spore === undefined) return usage(invocation, ctx)
    const inoculation = myceliumOf(ctx).inoculate({ source, spore, ...(strain ? { strain } : {}) })
    await answerSettled(ctx, inoculation, (done) => installedText(done, invocation, ctx))
  },

  async upgrade(invocation, ctx) {
    const spore = arg(invocation, 'spore')
    if (spore === undefined) return usage(invocation, ctx)
    const from = inoculated(spore, ctx)?.strain ?? '?'
    await answerSettled(ctx, myceliumOf(ctx).upgrade(spore), (done) =>
      ctx.t('upgrade.done', {
        spore,
        from,
        strain: done.strain,
        rollback: `${sibling(invocation, 'rollback')} ${spore}`,
      }),
    )
  },

  async rollback(invocation, ctx) {
    const spore = arg(invocation, 'spore')
    if (spore === undefined) return usage(invocation, ctx)
    await answerSettled(ctx, myceliumOf(ctx).rollBack(spore), (done) =>
      ctx.t('rollback.done', { spore, strain: done.strain, source: done.source }),
    )
  },

  async uninstall(invocation, ctx) {
    const spore = arg(invocation, 'spore')
    const data = arg(invocation, 'data')
    // Unsaid, the core asks when the spore stored something: keep (for a reinstall) or delete.
    if (spore === undefined || (data !== undefined && data !== 'keep' && data !== 'delete'))
      return usage(invocation, ctx)
    const keepData = data === undefined ? undefined : data === 'keep'
    await answerSettled(
      ctx,
      myceliumOf(ctx).uninstall(spore, keepData === undefined ? {} : { keepData }),
      () => ctx.t(keepData === false ? 'uninstall.doneDataDeleted' : 'uninstall.done', { spore }),
      {
        hint: (refusal) =>
          refusal.key.endsWith('uninstall_data_unsaid')
            ? ctx.t('usage.uninstall', { command: typed(invocation) })
            : undefined,
      },
    )
  },
}
