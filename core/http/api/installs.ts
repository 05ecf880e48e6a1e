// Installing from a source, upgrading, rolling back and uninstalling, through sources.manage.
// Download progress goes to /events always, and into the answer itself as JSON lines when the
// caller accepts application/x-ndjson; otherwise the answer waits and carries the outcome's status.

import type { Inoculation, OutcomeOf } from '@mycelo/septum'
import { stream } from 'hono/streaming'
import { z } from 'zod'
import { guardOf } from '../../mycelium/guards.ts'
import { pluginsRead } from '../../mycelium/plugins.ts'
import { sourceManageOutcomes } from '../../mycelium/sources.ts'
import { HttpError } from '../errors.ts'
import { answerOutcome, refusalBody } from './answer.ts'
import { type ApiDeps, type ApiRoute, type RouteCall, route } from './route.ts'

export const LINES = 'application/x-ndjson'

const installBody = z.strictObject({
  source: z.string().min(1),
  spore: z.string().min(1),
  strain: z.string().min(1).optional(),
})

type Progress = (received: number, total: number | undefined) => void

export function installRoutes(deps: ApiDeps): ApiRoute[] {
  const { runtime, events } = deps
  const manage = sourceManageOutcomes(runtime)
  const installed = (spore: string) =>
    pluginsRead(runtime)
      .listPlugins()
      .find((plugin) => plugin.name === spore)

  /** Runs one install-side step, announcing its progress and its end. */
  const inoculating = (
    call: RouteCall<unknown>,
    spore: string,
    work: (progress: Progress) => Promise<OutcomeOf<Inoculation>>,
  ): Response | Promise<Response> => {
    const { c, locale } = call
    const publish: Progress = (received, total) =>
      events.publish({ type: 'install', spore, phase: 'progress', received, ...(total ? { total } : {}) })
    const finish = (outcome: OutcomeOf<Inoculation>) => {
      if (outcome.ok) {
        events.publish({ type: 'install', spore, phase: 'done', strain: outcome.value.strain })
        events.stateChanged()
        return { inoculation: outcome.value, spore: installed(spore) }
      }
      events.publish({ type: 'install', spore, phase: 'refused', key: outcome.refusal.key })
      return undefined
    }
    if (!(c.req.header('accept') ?? '').includes(LINES)) {
      return work(progressAnnouncer(publish)).then((outcome) => {
        const shown = finish(outcome)
        return answerOutcome(runtime, c, outcome, () => shown)
      })
    }
    c.header('content-type', LINES)
    return stream(c, async (out) => {
      const line = (value: object) => out.write(`${JSON.stringify(value)}\n`)
      const outcome = await work(
        progressAnnouncer((received, total) => {
          publish(received, total)
          void line({ type: 'progress', received, ...(total ? { total } : {}) })
        }),
      )
      const shown = finish(outcome)
      await line(
        outcome.ok
          ? { type: 'done', ...shown }
          : { type: 'refused', ...refusalBody(runtime, outcome.refusal, locale) },
      )
    })
  }

  return [
    route({
      method: 'post',
      path: '/installs',
      summary: 'Install a spore from a source (disabled until enabled); progress as JSON lines on request',
      guard: guardOf('sources.manage', 'inoculate'),
      body: installBody,
      streams: [LINES],
      handle: (call) =>
        inoculating(call, call.body.spore, (onProgress) => manage.inoculate({ ...call.body, onProgress })),
    }),
    route({
      method: 'post',
      path: '/installs/:spore/upgrade',
      summary: 'Upgrade an installed spore to the newest strain its source offers that runs here',
      guard: guardOf('sources.manage', 'upgrade'),
      streams: [LINES],
      handle(call) {
        const spore = call.param('spore')
        return inoculating(call, spore, (onProgress) => manage.upgrade(spore, onProgress))
      },
    }),
    route({
      method: 'post',
      path: '/installs/:spore/rollback',
      summary: 'Put back the strain the last upgrade replaced',
      guard: guardOf('sources.manage', 'rollBack'),
      handle: (call) => inoculating(call, call.param('spore'), () => manage.rollBack(call.param('spore'))),
    }),
    route({
      method: 'delete',
      path: '/installs/:spore',
      summary:
        'Uninstall a spore installed from a source; ?keepData=true keeps its stored data, false deletes it (required when it stored any)',
      guard: guardOf('sources.manage', 'uninstall'),
      async handle({ c, param }) {
        const keepData = keepDataOf(c.req.query('keepData'))
        const outcome = await manage.uninstall(param('spore'), keepData === undefined ? {} : { keepData })
        if (outcome.ok) events.stateChanged()
        return answerOutcome(runtime, c, outcome)
      },
    }),
  ]
}

/** `keepData` from the query: true or false, or absent for the core to ask when there is data. */
function keepDataOf(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined
  if (value === 'true') return true
  if (value === 'false') return false
  throw new HttpError(400, 'http.error.badRequest', {
    params: { problem: `keepData must be true or false, not "${value.slice(0, 40)}"` },
  })
}

/** Announces at most once per whole percent (or per 64 KiB when the size is unknown). */
function progressAnnouncer(announce: Progress): Progress {
  let shown = -1
  return (received, total) => {
    const step = total ? Math.floor((received / total) * 100) : Math.floor(received / 65_536)
    if (step === shown) return
    shown = step
    announce(received, total)
  }
}
