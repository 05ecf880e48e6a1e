import { describe, expect, it } from 'bun:test'
import type { Rhiza, RhizaContext, RhizaModule } from '@mycelo/septum'
import { manualSchedule, memoryStorage, rhizaChecks } from '@mycelo/septum/conformance'
import type { ClockApi } from './fixtures/conformance/clock-rhiza/src/index.ts'
import { loadSpore } from './fixtures/conformance/load-spore.ts'

const logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => logger }
const context = (): RhizaContext => ({
  config: {},
  logger,
  rhiza: <T>() => ({}) as T,
  has: () => false,
  storage: memoryStorage(),
  schedule: manualSchedule(),
})

const clock = await loadSpore('clock-rhiza')
const clockModule = clock.module as RhizaModule<ClockApi>
const withRoutes = {
  ...(clock.manifest as Record<string, unknown>),
  routes: [
    { method: 'POST', path: '/hook', access: 'public', code: 'hook' },
    { method: 'GET', path: '/status', access: 'operator', code: 'status' },
  ],
}

function withMembers(routes: unknown): RhizaModule {
  return { create: async () => ({ ...(await clockModule.create()), routes }) as Rhiza }
}

const check = (module: RhizaModule) => rhizaChecks({ name: 'clock', manifest: withRoutes, module, context })

describe('conformance: declared routes (septum 1.1)', () => {
  it('passes when each declared code is a function of routes', async () => {
    const answer = () => new Response('ok')
    expect(await check(withMembers({ hook: answer, status: answer }))).toEqual([])
  })

  it('fails a declared code routes does not have, and one that is no function', async () => {
    expect(await check(withMembers({ hook: 'not a function' }))).toEqual([
      'routes: routes.hook is string, not a function',
      'routes: GET /status names code "status", which routes does not have',
    ])
  })

  it('fails declared routes with no routes object', async () => {
    expect(await check(withMembers(undefined))).toEqual([
      'routes: the manifest declares 2 route(s) but create() returned no routes object',
    ])
  })
})
