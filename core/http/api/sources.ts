// The sporangia spores are installed from: list, add, change, switch, delete, and what each offers,
// through sources.manage as chat and the command line call it. A token only ever reads as ••••.

import { z } from 'zod'
import { guardOf } from '../../mycelium/guards.ts'
import { sourceManageOutcomes } from '../../mycelium/sources.ts'
import { answerOutcome } from './answer.ts'
import { type ApiDeps, type ApiRoute, route } from './route.ts'

const newSource = z.strictObject({
  label: z.string(),
  url: z.string(),
  token: z.string().optional(),
  enabled: z.boolean().optional(),
  publisherKey: z.string().optional(),
})
const sourcePatch = newSource.partial()

export function sourceRoutes({ runtime }: ApiDeps): ApiRoute[] {
  const manage = sourceManageOutcomes(runtime)
  const toggle = (enabled: boolean) =>
    route({
      method: 'post',
      path: `/sources/:id/${enabled ? 'enable' : 'disable'}`,
      summary: enabled ? 'Switch a source on' : 'Switch a source off',
      guard: guardOf('sources.manage', 'updateSource', enabled ? 'enable' : 'disable'),
      handle: async ({ c, param }) =>
        answerOutcome(runtime, c, await manage.updateSource(param('id'), { enabled }), (source) => ({
          source,
        })),
    })
  return [
    route({
      method: 'get',
      path: '/sources',
      summary: 'Every source, its trust and pinned key; a token as ••••',
      guard: guardOf('sources.manage', 'listSources'),
      handle: async ({ c }) => c.json({ sources: await manage.listSources() }),
    }),
    route({
      method: 'post',
      path: '/sources',
      summary: 'Add a source (always third-party)',
      guard: guardOf('sources.manage', 'addSource'),
      body: newSource,
      handle: async ({ c, body }) =>
        answerOutcome(runtime, c, await manage.addSource(body), (source) => ({ source })),
    }),
    route({
      method: 'patch',
      path: '/sources/:id',
      summary: 'Change a source; •••• as the token keeps it, an empty token removes it',
      guard: guardOf('sources.manage', 'updateSource'),
      body: sourcePatch,
      handle: async ({ c, param, body }) =>
        answerOutcome(runtime, c, await manage.updateSource(param('id'), body), (source) => ({ source })),
    }),
    toggle(true),
    toggle(false),
    route({
      method: 'delete',
      path: '/sources/:id',
      summary: 'Delete a source (never the official one)',
      guard: guardOf('sources.manage', 'deleteSource'),
      handle: async ({ c, param }) => answerOutcome(runtime, c, await manage.deleteSource(param('id'))),
    }),
    route({
      method: 'get',
      path: '/sources/:id/offered',
      summary: 'The spores a source offers and their strains, newest first',
      guard: guardOf('sources.manage', 'offered'),
      handle: async ({ c, param }) =>
        answerOutcome(runtime, c, await manage.offered(param('id')), (spores) => ({ spores })),
    }),
  ]
}
