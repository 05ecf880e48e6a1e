import { describe, expect, it } from 'bun:test'
import type { Rhiza, RhizaModule } from '@mycelo/septum'
import { rhizaChecks } from '@mycelo/septum/conformance'
import type { ClockApi } from './fixtures/conformance/clock-rhiza/src/index.ts'
import { rhizaContext as context } from './fixtures/conformance/contexts.ts'
import { loadSpore } from './fixtures/conformance/load-spore.ts'

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
