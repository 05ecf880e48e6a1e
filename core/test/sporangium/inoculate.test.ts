import { afterEach, describe, expect, it, spyOn } from 'bun:test'
import type { SourcesManage } from '@mycelo/septum'
import { refused } from '../../mycelium/outcome.ts'
import * as installation from '../../sporangium/installation.ts'
import { insertSource } from '../../sporangium/source-rows.ts'
import { rejectionText } from '../mycelium/harness.ts'
import { sha256Of } from '../support/publisher.ts'
import { archiveBytes, sporangiumBot } from './sporangium-bot.ts'

// The install side is built elsewhere; here inoculate is followed up to the moment it hands over.
const world = sporangiumBot()
const bot = () => world.bot()
const keeper = () => bot().surface<SourcesManage>('keeper')
const bytes = archiveBytes('films 1.0.0', 2048)
const films = { spores: { films: { strains: { '1.0.0': { bytes } } } } }

let install: ReturnType<typeof spyOn<typeof installation, 'installStrain'>> | undefined
afterEach(() => {
  install?.mockRestore()
  install = undefined
})

function watchInstall() {
  install = spyOn(installation, 'installStrain').mockImplementation(async (_deps, archive) => ({
    ok: true,
    value: {
      spore: archive.spore,
      strain: archive.strain,
      source: archive.source,
      path: `/installed/${archive.spore}`,
    },
  }))
  return install
}

describe('inoculate, through a spore granted sources.manage', () => {
  it('hands the install side the proven bytes of the strain, and answers what it installed', async () => {
    const installing = watchInstall()
    const { source } = await world.publish(films)
    const inoculation = await keeper().inoculate({ source, spore: 'films' })
    expect(inoculation).toEqual({ spore: 'films', strain: '1.0.0', source, path: '/installed/films' })
    expect(installing).toHaveBeenCalledTimes(1)
    const [deps, archive] = installing.mock.calls[0] ?? []
    expect(archive).toEqual({ spore: 'films', strain: '1.0.0', source, bytes, sha256: sha256Of(bytes) })
    expect(deps?.config).toBe(bot().config)
  })

  it('rejects with the install side’s refusal', async () => {
    install = spyOn(installation, 'installStrain').mockImplementation(async () =>
      refused('source_unknown', { source: 'stand-in for an install refusal' }),
    )
    const { source } = await world.publish(films)
    expect(await rejectionText(bot(), keeper().inoculate({ source, spore: 'films' }))).toContain(
      'stand-in for an install refusal',
    )
  })

  it('rejects every fetch-side refusal before the install side is asked for anything', async () => {
    const installing = watchInstall()
    const { source, server } = await world.publish(films)
    const { source: disabled } = await world.publish(films, { enabled: false })
    const { source: lying } = await world.publish({
      spores: { films: { strains: { '1.0.0': { bytes, entry: { sha256: sha256Of(archiveBytes('x')) } } } } },
    })
    insertSource(bot().store, {
      id: 'on-disk',
      label: 'On disk',
      url: 'file:///srv/spores',
      trust: 'third-party',
    })
    const reject = (request: { source: string; spore: string; strain?: string }) =>
      rejectionText(bot(), keeper().inoculate(request))

    expect(await reject({ source: 'nowhere', spore: 'films' })).toBe(
      'No source is known by the id "nowhere".',
    )
    expect(await reject({ source: disabled, spore: 'films' })).toContain('is disabled')
    expect(await reject({ source: 'on-disk', spore: 'films' })).toContain('is a local location')
    expect(await reject({ source, spore: 'music' })).toContain('offers no spore named "music"')
    expect(await reject({ source, spore: 'films', strain: '2.0.0' })).toContain('offers no strain 2.0.0')
    expect(await reject({ source: lying, spore: 'films' })).toContain('SHA-256 mismatch')
    server.fault('/films-1.0.0.tgz', { kind: 'status', status: 500 })
    expect(await reject({ source, spore: 'films' })).toContain('answered HTTP 500')
    expect(installing).not.toHaveBeenCalled()
  })
})
