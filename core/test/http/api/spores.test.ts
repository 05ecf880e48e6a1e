// The report and the spores over real HTTP: each answer is what the mycelium functions chat uses
// answer, each refusal their reason in the reader's language, and no secret ever leaves.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { SECRET_MASK } from '@mycelo/septum'
import { type ApiGround, startApiGround } from './ground.ts'
import { API_SEED, API_SPORES, VAULT_TOKEN } from './spores.ts'

let api: ApiGround
beforeAll(async () => {
  api = await startApiGround({ spores: API_SPORES, ...API_SEED })
})
afterAll(() => api.stop())

describe('the report and the spore list', () => {
  it('reports every spore with its kind and state', async () => {
    const { status, json } = await api.ask('GET', '/report')
    expect(status).toBe(200)
    const lines = json.spores as { name: string; kind: string; state: string }[]
    expect(lines.map((line) => [line.name, line.kind, line.state])).toEqual([
      ['admin', 'enzyme', 'live'],
      ['beacon', 'rhiza', 'live'],
      ['chat', 'hypha', 'live'],
      ['guard', 'inhibitor', 'live'],
      ['vault', 'enzyme', 'live'],
    ])
  })

  it('lists the spores as plugins.read does, switch and description included', async () => {
    const { status, json } = await api.ask('GET', '/spores')
    expect(status).toBe(200)
    const vault = (json.spores as Record<string, unknown>[]).find((spore) => spore.name === 'vault')
    expect(vault).toEqual({
      isolation: 'inline',
      name: 'vault',
      kind: 'enzyme',
      state: 'live',
      enabled: true,
      description: 'Keeps a token',
    })
  })
})

describe('switching a spore', () => {
  it('disables and enables, the switch showing at once', async () => {
    expect((await api.ask('POST', '/spores/vault/disable')).status).toBe(200)
    const off = await api.ask('GET', '/spores')
    expect(
      (off.json.spores as { name: string; enabled: boolean }[]).find((s) => s.name === 'vault')?.enabled,
    ).toBe(false)
    expect(await api.ask('POST', '/spores/vault/enable')).toMatchObject({ status: 200, json: { ok: true } })
  })

  it('answers an unknown spore with 404 and the reason, in English and French', async () => {
    expect(await api.ask('POST', '/spores/ghost/enable')).toMatchObject({
      status: 404,
      json: { key: 'refusal.plugin_unknown', error: expect.stringContaining('ghost') },
    })
    const fr = await api.ask('POST', '/spores/ghost/disable', { locale: 'fr' })
    expect(fr.status).toBe(404)
    expect(fr.json.error).toBe(
      api.runtime.translator.render(
        { domain: 'common', key: 'refusal.plugin_unknown', params: { plugin: 'ghost' } },
        'fr',
      ),
    )
    expect(fr.json.error).not.toBe(
      api.runtime.translator.render(
        { domain: 'common', key: 'refusal.plugin_unknown', params: { plugin: 'ghost' } },
        'en',
      ),
    )
  })

  it('lets the page switch off the admin spore: the page stays a way back, so it is no lockout', async () => {
    const { status } = await api.ask('POST', '/spores/admin/disable')
    expect(status).toBe(200)
    expect(api.runtime.plugins.installOf('admin')?.enabled).toBe(false)
    expect((await api.ask('POST', '/spores/admin/enable')).status).toBe(200)
    expect(api.runtime.plugins.installOf('admin')?.enabled).toBe(true)
  })

  it('says a reload cannot happen in place when the runtime offers none, and 404 for an unknown spore', async () => {
    expect(await api.ask('POST', '/spores/vault/reload')).toMatchObject({
      status: 409,
      json: { key: 'api.reloadUnavailable', error: expect.stringContaining('"vault" cannot be reloaded') },
    })
    expect((await api.ask('POST', '/spores/ghost/reload')).status).toBe(404)
  })
})

describe('settings through the form', () => {
  it('publishes the form with its secret keys', async () => {
    const { status, json } = await api.ask('GET', '/spores/vault/form')
    expect(status).toBe(200)
    expect(json).toMatchObject({ available: true, secrets: ['token'], schema: { type: 'object' } })
    expect((await api.ask('GET', '/spores/ghost/form')).status).toBe(404)
  })

  it('reads a secret as the mask, and posting the mask back keeps the stored value', async () => {
    expect(await api.ask('GET', '/spores/vault/settings')).toMatchObject({
      status: 200,
      json: { values: { token: SECRET_MASK } },
    })
    const written = await api.ask('PATCH', '/spores/vault/settings', {
      body: { values: { token: SECRET_MASK, port: 8080 } },
    })
    expect(written).toMatchObject({
      status: 200,
      json: { values: { token: SECRET_MASK, port: 8080 }, written: ['token', 'port'] },
    })
    expect(api.runtime.plugins.settingsOf('vault')).toEqual({ token: VAULT_TOKEN, port: 8080 })
  })

  it('refuses a value the spore’s schema rejects, 422 naming the key, and writes nothing after it', async () => {
    const { status, json } = await api.ask('PATCH', '/spores/vault/settings', {
      body: { values: { port: 'eighty' } },
    })
    expect(status).toBe(422)
    expect(json).toMatchObject({ key: 'refusal.setting_invalid', field: 'values.port', written: [] })
    expect(json.error).toContain('"port"')
    expect(api.runtime.plugins.settingsOf('vault').port).toBe(8080)
  })

  it('writes and removes one key, and refuses an undeclared or absent one', async () => {
    expect((await api.ask('PUT', '/spores/vault/settings/port', { body: { value: 9090 } })).status).toBe(200)
    expect(api.runtime.plugins.settingsOf('vault').port).toBe(9090)
    expect((await api.ask('DELETE', '/spores/vault/settings/port')).status).toBe(200)
    expect(await api.ask('DELETE', '/spores/vault/settings/port')).toMatchObject({
      status: 404,
      json: { key: 'refusal.setting_absent' },
    })
    expect(await api.ask('PUT', '/spores/vault/settings/colour', { body: { value: 'red' } })).toMatchObject({
      status: 422,
      json: { key: 'refusal.setting_undeclared' },
    })
  })

  it('never sent the stored secret in any answer', () => {
    expect(api.bodies.length).toBeGreaterThan(10)
    for (const body of api.bodies) expect(body).not.toContain(VAULT_TOKEN)
  })
})
