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
  septum: '^1.1',
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
      manifest: { ...(spore.manifest as Record<string, unknown>), septum: '^1.1', routes: hook },
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

  it('refuses a range that admits septum 1.0, naming the 1.1 members the spore uses', async () => {
    const spore = await lacking('radarr-helper')
    const found = await enzymeChecks({
      name: 'radarr-helper',
      ...spore,
      manifest: { ...spore.manifest, septum: '>=1.0.4 <2' },
      module: spore.module as EnzymeModule,
      context: enzymeContext,
    })
    expect(found).toContain(
      'manifest: septum range ">=1.0.4 <2" admits septum 1.0.4, which has no migrations on the default export, ' +
        'routes in the manifest: the spore uses septum 1.1, so declare "^1.1" (or narrower) and a 1.0 core ' +
        'refuses it instead of failing at its first call',
    )
  })
})

describe('conformance: the range against what a handler calls', () => {
  const manifest = {
    kind: 'enzyme',
    name: 'counter',
    septum: '^1.0',
    commands: [{ name: 'count', description: 'command.count.description', code: 'count' }],
  }
  const counter = (touch: boolean): EnzymeModule => ({
    create: () => ({
      handlers: {
        async count(_invocation, ctx) {
          const seen = touch ? ((await ctx.storage.get<number>('seen')) ?? 0) : 0
          await ctx.reply({ text: String(seen) })
        },
      },
    }),
  })

  it('names ctx.storage once a handler calls through it', async () => {
    const found = await enzymeChecks({
      name: 'counter',
      manifest,
      module: counter(true),
      context: enzymeContext,
    })
    expect(found).toEqual([
      'manifest: septum range "^1.0" admits septum 1.0.0, which has no ctx.storage: the spore uses septum 1.1, ' +
        'so declare "^1.1" (or narrower) and a 1.0 core refuses it instead of failing at its first call',
    ])
    const narrower = await enzymeChecks({
      name: 'counter',
      manifest: { ...manifest, septum: '^1.1' },
      module: counter(true),
      context: enzymeContext,
    })
    expect(narrower).toEqual([])
  })

  it('says nothing of a context that merely carries storage, as every 1.1 context does', async () => {
    expect(
      await enzymeChecks({ name: 'counter', manifest, module: counter(false), context: enzymeContext }),
    ).toEqual([])
  })
})
