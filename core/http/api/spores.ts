// The report and the spores: list, enable, disable, reload, and settings read and written through
// the plugin's own published form, each through the functions chat's admin spore calls.

import { z } from 'zod'
import { report } from '../../germination/report.ts'
import { pluginsConfigure } from '../../mycelium/configure.ts'
import { guardOf } from '../../mycelium/guards.ts'
import { pluginsRead, pluginsToggle, standing } from '../../mycelium/plugins.ts'
import { answerOutcome, notFound, refusalBody, refusalResponse, refusalStatus } from './answer.ts'
import { type ApiDeps, type ApiRoute, route } from './route.ts'

const settingsBody = z.strictObject({
  /** Key → value; a secret sent back as `••••` keeps what is stored. */
  values: z.record(z.string().min(1), z.json()),
})
const settingBody = z.strictObject({ value: z.json() })

export function sporeRoutes(deps: ApiDeps): ApiRoute[] {
  const { runtime, events } = deps
  const read = pluginsRead(runtime)
  const toggle = pluginsToggle(runtime, runtime.plugins)
  const configure = pluginsConfigure(runtime, runtime.plugins)
  const known = (name: string) => runtime.germination.byName.has(name)
  const changed = <T extends { ok: boolean }>(outcome: T): T => {
    if (outcome.ok) events.stateChanged()
    return outcome
  }
  return [
    route({
      method: 'get',
      path: '/report',
      summary: 'The germination report: every spore with its kind, state and reason',
      guard: guardOf('plugins.read', 'listPlugins'),
      handle: ({ c }) =>
        c.json({
          spores: report(runtime.germination).map((line) => ({ ...line, ...standing(runtime, line) })),
        }),
    }),
    route({
      method: 'get',
      path: '/spores',
      summary: 'Every spore, its state, its switch and where it came from',
      guard: guardOf('plugins.read', 'listPlugins'),
      handle: ({ c }) => c.json({ spores: read.listPlugins() }),
    }),
    route({
      method: 'post',
      path: '/spores/:name/enable',
      summary: 'Switch a spore on and start it at once, after checking its manifest and settings',
      guard: guardOf('plugins.toggle', 'enable'),
      handle: async ({ c, param }) => answerOutcome(runtime, c, changed(await toggle.enable(param('name')))),
    }),
    route({
      method: 'post',
      path: '/spores/:name/disable',
      summary: 'Switch a spore off and stop it at once (and what needs it)',
      guard: guardOf('plugins.toggle', 'disable'),
      handle: async ({ c, param }) => answerOutcome(runtime, c, changed(await toggle.disable(param('name')))),
    }),
    route({
      method: 'post',
      path: '/spores/:name/reload',
      summary: 'Re-germinate one spore in place',
      guard: guardOf('plugins.toggle', 'reload'),
      async handle({ c, param }) {
        const name = param('name')
        if (!known(name)) return notFound(runtime, c, 'api.sporeUnknown', { spore: name })
        if (deps.reload === undefined) {
          return refusalResponse(
            runtime,
            c,
            { domain: 'core', key: 'api.reloadUnavailable', params: { spore: name } },
            409,
          )
        }
        return answerOutcome(runtime, c, changed(await deps.reload(name)))
      },
    }),
    route({
      method: 'post',
      path: '/spores/rescan',
      summary:
        'Look through the spores folders again: new folders are listed (disabled), the refused say why',
      guard: guardOf('plugins.toggle', 'rescan'),
      async handle({ c }) {
        if (toggle.rescan === undefined) {
          return refusalResponse(runtime, c, { domain: 'core', key: 'api.rescanUnavailable' }, 409)
        }
        return answerOutcome(runtime, c, changed(await toggle.rescan()))
      },
    }),
    route({
      method: 'get',
      path: '/spores/:name/form',
      summary: "The spore's settings form: its published JSON Schema and which keys are secret",
      guard: guardOf('plugins.configure', 'formSchema'),
      async handle({ c, param }) {
        const name = param('name')
        if (!known(name)) return notFound(runtime, c, 'api.sporeUnknown', { spore: name })
        return c.json(await configure.formSchema(name))
      },
    }),
    route({
      method: 'get',
      path: '/spores/:name/settings',
      summary: 'The stored settings; a secret reads as ••••',
      guard: guardOf('plugins.configure', 'settings'),
      handle: async ({ c, param }) =>
        answerOutcome(runtime, c, await configure.settings(param('name')), (values) => ({ values })),
    }),
    route({
      method: 'patch',
      path: '/spores/:name/settings',
      summary: 'Write several settings, as a form submits them; each is checked as chat checks it',
      guard: guardOf('plugins.configure', 'setSetting'),
      body: settingsBody,
      async handle({ c, param, body, locale }) {
        const name = param('name')
        const written: string[] = []
        // Key by key, as chat writes them: the first refusal stops there and names its key.
        for (const [key, value] of Object.entries(body.values)) {
          const outcome = await configure.setSetting(name, key, value)
          if (!outcome.ok) {
            const refusal = refusalBody(runtime, outcome.refusal, locale)
            if (written.length > 0) events.stateChanged()
            return c.json({ ...refusal, field: `values.${key}`, written }, refusalStatus(outcome.refusal))
          }
          written.push(key)
        }
        events.stateChanged()
        return answerOutcome(runtime, c, await configure.settings(name), (values) => ({ values, written }))
      },
    }),
    route({
      method: 'put',
      path: '/spores/:name/settings/:key',
      summary: 'Write one setting; a secret sent back as •••• keeps what is stored',
      guard: guardOf('plugins.configure', 'setSetting'),
      body: settingBody,
      handle: async ({ c, param, body }) =>
        answerOutcome(
          runtime,
          c,
          changed(await configure.setSetting(param('name'), param('key'), body.value)),
        ),
    }),
    route({
      method: 'delete',
      path: '/spores/:name/settings/:key',
      summary: 'Remove one setting',
      guard: guardOf('plugins.configure', 'unsetSetting'),
      handle: async ({ c, param }) =>
        answerOutcome(runtime, c, changed(await configure.unsetSetting(param('name'), param('key')))),
    }),
  ]
}
