// Sources and installs over real HTTP against a signed sporangium on loopback: the refusals are
// sources.manage's, install progress comes as JSON lines when asked, and a token never leaves.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { SECRET_MASK } from '@mycelo/septum'
import { LINES } from '../../../http/api/installs.ts'
import type { IndexServer } from '../../support/index-server.ts'
import { type ApiGround, startApiGround } from './ground.ts'
import { LOOPBACK_SPORANGIA, serveProbeSporangium } from './sporangium.ts'
import { API_SEED, API_SPORES } from './spores.ts'

const SOURCE_TOKEN = 'source-token-c0ffee42'

let api: ApiGround
let server: IndexServer
let source: string
beforeAll(async () => {
  api = await startApiGround({ spores: API_SPORES, ...API_SEED, config: LOOPBACK_SPORANGIA })
  server = await serveProbeSporangium(api.folder)
})
afterAll(async () => {
  await server.stop()
  await api.stop()
})

/** Every JSON line of a streamed answer. */
async function lines(response: Response): Promise<Record<string, unknown>[]> {
  const text = await response.text()
  api.bodies.push(text)
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}

describe('sources', () => {
  it('adds a source as third-party, its token only ever as the mask', async () => {
    const added = await api.ask('POST', '/sources', {
      body: { label: 'Loopback mirror', url: server.url, token: SOURCE_TOKEN },
    })
    expect(added.status).toBe(200)
    expect(added.json.source).toMatchObject({
      id: 'loopback-mirror',
      trust: 'third-party',
      token: SECRET_MASK,
    })
    source = 'loopback-mirror'
    const listed = (await api.ask('GET', '/sources')).json.sources as Record<string, unknown>[]
    expect(listed.find((row) => row.id === source)).toMatchObject({ token: SECRET_MASK, enabled: true })
  })

  it('changes a source, the mask keeping the token, and switches it off and on', async () => {
    const patched = await api.ask('PATCH', `/sources/${source}`, {
      body: { label: 'Mirror', token: SECRET_MASK },
    })
    expect(patched.json.source).toMatchObject({ label: 'Mirror', token: SECRET_MASK })
    expect((await api.ask('POST', `/sources/${source}/disable`)).json.source).toMatchObject({
      enabled: false,
    })
    expect(await api.ask('POST', '/installs', { body: { source, spore: 'probe' } })).toMatchObject({
      status: 409,
      json: { key: 'refusal.source_disabled' },
    })
    expect((await api.ask('POST', `/sources/${source}/enable`)).json.source).toMatchObject({ enabled: true })
  })

  it('refuses a bad URL, an unknown source and deleting the official one, in the reader’s words', async () => {
    expect(
      await api.ask('POST', '/sources', { body: { label: 'x', url: 'http://example.org' } }),
    ).toMatchObject({
      status: 422,
      json: { key: 'refusal.source_url_scheme', error: expect.stringContaining('http://example.org') },
    })
    expect(await api.ask('PATCH', '/sources/ghost', { body: { label: 'x' } })).toMatchObject({
      status: 404,
      json: { key: 'refusal.source_unknown' },
    })
    const official = (
      (await api.ask('GET', '/sources')).json.sources as { id: string; trust: string }[]
    ).find((row) => row.trust === 'official')
    expect(official).toBeDefined()
    expect(await api.ask('DELETE', `/sources/${official!.id}`)).toMatchObject({
      status: 409,
      json: { key: 'refusal.source_official_delete' },
    })
  })

  it('says what a source offers, newest strain first', async () => {
    const { status, json } = await api.ask('GET', `/sources/${source}/offered`)
    expect(status).toBe(200)
    expect(json.spores).toEqual([
      expect.objectContaining({ name: 'probe', kind: 'enzyme', description: 'Says hi' }),
    ])
    const strains = (json.spores as { strains: { strain: string }[] }[])[0]!.strains.map((s) => s.strain)
    expect(strains).toEqual(['1.1.0', '1.0.0'])
  })
})

describe('installs', () => {
  const installed = () => join(api.folder, 'data', 'spores', 'probe', 'spore.yaml')

  it('installs a strain disabled and says what it asks for', async () => {
    const { status, json } = await api.ask('POST', '/installs', {
      body: { source, spore: 'probe', strain: '1.0.0' },
    })
    expect(status).toBe(200)
    expect(json.inoculation).toMatchObject({ spore: 'probe', strain: '1.0.0', source })
    expect(json.spore).toMatchObject({ name: 'probe', enabled: false, source, strain: '1.0.0' })
    expect((json.spore as { reason: string }).reason).toContain('a set of commands')
    expect(existsSync(installed())).toBe(true)
  })

  it('upgrades as JSON lines: download progress, then the outcome; a second upgrade has nothing newer', async () => {
    const response = await api.open('POST', '/installs/probe/upgrade', { headers: { accept: LINES } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain(LINES)
    const streamed = await lines(response)
    const progress = streamed.filter((line) => line.type === 'progress')
    expect(progress.length).toBeGreaterThan(0)
    const last = progress.at(-1) as { received: number; total: number }
    expect(last.received).toBe(last.total)
    expect(streamed.at(-1)).toMatchObject({ type: 'done', inoculation: { strain: '1.1.0' } })
    expect(await api.ask('POST', '/installs/probe/upgrade', { locale: 'fr' })).toMatchObject({
      status: 409,
      json: {
        key: 'refusal.upgrade_current',
        error: `« probe » est en 1.1.0 : ${source} ne propose rien de plus récent qui fonctionne ici.`,
      },
    })
  })

  it('streams a refusal as its last line, worded for the reader', async () => {
    const response = await api.open('POST', '/installs', {
      body: { source, spore: 'ghost' },
      headers: { accept: LINES },
    })
    expect(await lines(response)).toEqual([
      {
        type: 'refused',
        key: 'refusal.sporangium_spore_unknown',
        error: `The source "${source}" offers no spore named "ghost".`,
      },
    ])
    expect(await api.ask('POST', '/installs', { body: { source, spore: 'ghost' } })).toMatchObject({
      status: 404,
    })
  })

  it('rolls back, then has nothing earlier; uninstalls, then has nothing installed', async () => {
    expect(await api.ask('POST', '/installs/probe/rollback')).toMatchObject({
      status: 200,
      json: { inoculation: { strain: '1.0.0' } },
    })
    expect(await api.ask('POST', '/installs/probe/rollback')).toMatchObject({
      status: 409,
      json: { key: 'refusal.strain_no_previous' },
    })
    // What probe stored (septum 1.1) goes only when the operator says keepData=false.
    await api.runtime.holdings.storageOf('probe').set('greeted', 2)
    expect(await api.ask('DELETE', '/installs/probe?keepData=perhaps')).toMatchObject({
      status: 400,
      json: {
        key: 'http.error.badRequest',
        error: 'The request is not understood: keepData must be true or false, not "perhaps"',
      },
    })
    expect(await api.ask('DELETE', '/installs/probe')).toMatchObject({
      status: 409,
      json: {
        key: 'refusal.uninstall_data_unsaid',
        error:
          '"probe" has stored data (1 entry, 0 schedules): say whether to keep it for a reinstall or delete it with the spore.',
      },
    })
    expect(existsSync(installed())).toBe(true)
    expect((await api.ask('DELETE', '/installs/probe?keepData=false')).status).toBe(200)
    expect(await api.runtime.holdings.storageOf('probe').list()).toEqual([])
    expect(existsSync(installed())).toBe(false)
    expect(await api.ask('DELETE', '/installs/probe')).toMatchObject({
      status: 404,
      json: { key: 'refusal.spore_not_installed' },
    })
    expect(await api.ask('POST', '/installs/probe/upgrade')).toMatchObject({
      status: 404,
      json: { key: 'refusal.spore_not_installed' },
    })
  })

  it('deletes a source it added', async () => {
    expect((await api.ask('DELETE', `/sources/${source}`)).status).toBe(200)
    expect(await api.ask('DELETE', `/sources/${source}`)).toMatchObject({ status: 404 })
  })

  it('never sent the source’s token in any answer', () => {
    expect(server.requests.some((request) => request.authorization?.includes(SOURCE_TOKEN))).toBe(true)
    for (const body of api.bodies) expect(body).not.toContain(SOURCE_TOKEN)
  })
})
