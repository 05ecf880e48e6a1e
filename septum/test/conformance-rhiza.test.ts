import { describe, expect, it } from 'bun:test'
import type { Rhiza, RhizaModule } from '@mycelo/septum'
import { rhizaChecks } from '@mycelo/septum/conformance'
import type { ClockApi } from './fixtures/conformance/clock-rhiza/src/index.ts'
import { rhizaContext as context } from './fixtures/conformance/contexts.ts'
import { loadSpore } from './fixtures/conformance/load-spore.ts'

const clock = await loadSpore('clock-rhiza')
const clockModule = clock.module as RhizaModule<ClockApi>

function altered(change: Partial<Record<keyof Rhiza, unknown>>): RhizaModule {
  return {
    create: async () => ({ ...(await clockModule.create()), ...change }) as Rhiza,
  }
}

describe('rhizaChecks', () => {
  it('passes the clock rhiza', async () => {
    expect(
      await rhizaChecks({ name: 'clock', manifest: clock.manifest, module: clockModule, context }),
    ).toEqual([])
  })

  it('fails a health() that throws instead of reporting', async () => {
    const failures = await rhizaChecks({
      name: 'clock',
      manifest: clock.manifest,
      module: altered({ health: () => Promise.reject(new Error('ECONNREFUSED 127.0.0.1:7878')) }),
      context,
    })
    expect(failures).toEqual([
      "health(): threw: Error: ECONNREFUSED 127.0.0.1:7878; report { state: 'unreachable', detail, checkedAt } instead",
    ])
  })

  it('fails a health report with an unknown state or no checkedAt', async () => {
    const failures = await rhizaChecks({
      name: 'clock',
      manifest: clock.manifest,
      module: altered({ health: async () => ({ state: 'ok' }) }),
      context,
    })
    expect(failures).toEqual([
      'health(): state is "ok", not healthy, degraded or unreachable',
      'health(): checkedAt is not a valid Date',
    ])
  })

  it('fails a rhiza with no api, or missing start/stop/health', async () => {
    const noApi = await rhizaChecks({
      name: 'clock',
      manifest: clock.manifest,
      module: altered({ api: undefined }),
      context,
    })
    expect(noApi).toEqual(['api: the rhiza has no api for other spores to receive'])
    const noHealth = await rhizaChecks({
      name: 'clock',
      manifest: clock.manifest,
      module: altered({ health: undefined }),
      context,
    })
    expect(noHealth).toEqual(['module: create() returned no health() function'])
  })

  it('fails a start() that rejects, and a stop() that throws', async () => {
    const startFails = await rhizaChecks({
      name: 'clock',
      manifest: clock.manifest,
      module: altered({ start: () => Promise.reject(new Error('no API key')) }),
      context,
    })
    expect(startFails).toEqual(['start(): threw: Error: no API key'])
    const stopFails = await rhizaChecks({
      name: 'clock',
      manifest: clock.manifest,
      module: altered({
        stop: () => {
          throw new Error('still busy')
        },
      }),
      context,
    })
    expect(stopFails).toEqual(['stop(): threw: Error: still busy'])
  })
})
