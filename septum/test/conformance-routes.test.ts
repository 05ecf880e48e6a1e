import { describe, expect, it } from 'bun:test'
import type { EnzymeModule, HyphaModule, InhibitorModule, Rhiza, RhizaModule } from '@mycelo/septum'
import { enzymeChecks, hyphaChecks, inhibitorChecks, rhizaChecks } from '@mycelo/septum/conformance'
import type { ClockApi } from './fixtures/conformance/clock-rhiza/src/index.ts'
import {
  rhizaContext as context,
  enzymeContext,
  hyphaContext,
  inhibitorContext,
} from './fixtures/conformance/contexts.ts'
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

describe('conformance: every kind checks its declared routes and migrations', () => {
  const hook = [{ method: 'POST', path: '/hook', access: 'public', code: 'hook' }]
  /** The fixture's manifest declaring one route, and its module with no routes and a migration that throws. */
  async function lacking(fixture: string) {
    const spore = await loadSpore(fixture)
    const module = spore.module as { create(): unknown }
    return {
      manifest: { ...(spore.manifest as Record<string, unknown>), routes: hook },
      module: {
        ...module,
        migrations: [
          {
            version: 1,
            up() {
              throw new Error('no table')
            },
          },
        ],
      },
    }
  }
  const failures = [
    'migrations: version 1 failed on an empty storage: Error: no table',
    'routes: the manifest declares 1 route(s) but create() returned no routes object',
  ]

  it('hyphaChecks', async () => {
    const spore = await lacking('echo-hypha')
    const found = await hyphaChecks({
      name: 'echo',
      ...spore,
      module: spore.module as HyphaModule,
      context: hyphaContext,
    })
    expect(found).toEqual(failures)
  })

  it('enzymeChecks', async () => {
    const spore = await lacking('radarr-helper')
    const found = await enzymeChecks({
      name: 'radarr-helper',
      ...spore,
      module: spore.module as EnzymeModule,
      context: enzymeContext,
    })
    expect(found).toEqual(failures)
  })

  it('inhibitorChecks', async () => {
    const spore = await lacking('allowlist')
    const found = await inhibitorChecks({
      name: 'allowlist',
      ...spore,
      module: spore.module as InhibitorModule<{ allowed: readonly string[] }>,
      context: () => inhibitorContext({ allowed: ['alice'] }),
      expectations: [],
    })
    expect(found).toEqual(failures)
  })
})
