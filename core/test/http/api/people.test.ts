// Principals, identities, roles and grants over real HTTP: the role ceiling and the last-owner rule
// are the mycelium's, and the API answers them in the reader's words.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { type ApiGround, startApiGround } from './ground.ts'
import { API_SEED, API_SPORES } from './spores.ts'

let api: ApiGround
beforeAll(async () => {
  api = await startApiGround({ spores: API_SPORES, ...API_SEED })
})
afterAll(() => api.stop())

describe('principals and identities', () => {
  it('says who the session is, with the patterns their roles hold', async () => {
    const { status, json } = await api.ask('GET', '/me', { as: 'mod' })
    expect(status).toBe(200)
    expect(json.patterns).toEqual(['admin.enable', 'admin.health', 'admin.people', 'admin.plugins'])
    expect(json.principal).toMatchObject({ id: api.principal('mod'), roles: ['moderator'] })
  })

  it('lists principals, finds one by id and by identity, and 404s the unknown', async () => {
    const listed = await api.ask('GET', '/principals')
    const ids = (listed.json.principals as { id: string }[]).map((p) => p.id)
    expect(ids).toContain(api.principal('owner'))
    expect(ids).toContain(api.principal('stew'))
    const one = await api.ask('GET', `/principals/${api.principal('stew')}`)
    expect(one.json.principal).toMatchObject({
      roles: ['steward'],
      identities: [{ channel: 'chat', externalId: 'stew' }],
    })
    const found = await api.ask('GET', '/identities/chat/stew')
    expect((found.json.principal as { id: string }).id).toBe(api.principal('stew'))
    expect(await api.ask('GET', '/identities/chat/nobody')).toMatchObject({
      status: 404,
      json: { key: 'api.identityUnknown', error: 'No principal is known as "nobody" on chat.' },
    })
    expect((await api.ask('GET', '/principals/nobody', { locale: 'fr' })).json.error).toBe(
      'Aucun principal n’a l’identifiant « nobody ».',
    )
  })

  it('marks reviewed and renames, refusing an unknown principal', async () => {
    const stew = api.principal('stew')
    expect((await api.ask('POST', `/principals/${stew}/review`)).status).toBe(200)
    expect(
      (await api.ask('PUT', `/principals/${stew}/name`, { body: { displayName: 'Stewart' } })).status,
    ).toBe(200)
    expect((await api.ask('GET', `/principals/${stew}`)).json.principal).toMatchObject({
      reviewed: true,
      displayName: 'Stewart',
    })
    expect(await api.ask('POST', '/principals/nobody/review')).toMatchObject({
      status: 404,
      json: { key: 'refusal.principal_unknown' },
    })
  })
})

describe('roles and grants', () => {
  it('creates, rewrites and deletes a role, refusing a bad pattern and a taken name', async () => {
    expect((await api.ask('POST', '/roles', { body: { name: 'helper', patterns: ['help.*'] } })).status).toBe(
      200,
    )
    expect(await api.ask('POST', '/roles', { body: { name: 'helper', patterns: [] } })).toMatchObject({
      status: 409,
      json: { key: 'refusal.role_taken' },
    })
    expect(await api.ask('PUT', '/roles/helper', { body: { patterns: ['Not A Pattern'] } })).toMatchObject({
      status: 422,
      json: { key: 'refusal.pattern_invalid' },
    })
    expect((await api.ask('PUT', '/roles/helper', { body: { patterns: ['help.help'] } })).status).toBe(200)
    const roles = (await api.ask('GET', '/roles')).json.roles as { name: string; patterns: string[] }[]
    expect(roles.find((role) => role.name === 'helper')?.patterns).toEqual(['help.help'])
    expect((await api.ask('DELETE', '/roles/helper')).status).toBe(200)
    expect(await api.ask('DELETE', '/roles/owner')).toMatchObject({
      status: 409,
      json: { key: 'refusal.role_builtin' },
    })
    expect(await api.ask('DELETE', '/roles/helper')).toMatchObject({
      status: 404,
      json: { key: 'refusal.role_unknown' },
    })
  })

  it('grants and revokes a role', async () => {
    const mod = api.principal('mod')
    expect((await api.ask('POST', `/principals/${mod}/roles`, { body: { role: 'steward' } })).status).toBe(
      200,
    )
    expect((await api.ask('GET', `/principals/${mod}/roles`)).json.roles).toEqual(['moderator', 'steward'])
    expect((await api.ask('DELETE', `/principals/${mod}/roles/steward`)).status).toBe(200)
    expect(await api.ask('DELETE', `/principals/${mod}/roles/steward`)).toMatchObject({
      status: 409,
      json: { key: 'refusal.role_not_held' },
    })
  })

  it('holds a steward to the ceiling of their own roles: 403 with the mycelium’s reason', async () => {
    const mod = api.principal('mod')
    const owner = await api.ask('POST', `/principals/${mod}/roles`, { as: 'stew', body: { role: 'owner' } })
    expect(owner).toMatchObject({ status: 403, json: { key: 'refusal.owner_only' } })
    const above = await api.ask('POST', `/principals/${mod}/roles`, {
      as: 'stew',
      body: { role: 'moderator' },
    })
    expect(above).toMatchObject({ status: 403, json: { key: 'refusal.patterns_uncovered' } })
    expect(above.json.error).toContain('admin.plugins')
    const holder = await api.ask('DELETE', `/principals/${api.principal('owner')}/roles/owner`, {
      as: 'stew',
    })
    expect(holder.status).toBe(403)
  })

  it('keeps the last owner: 409', async () => {
    const owner = api.principal('owner')
    const { status, json } = await api.ask('DELETE', `/principals/${owner}/roles/owner`, { locale: 'fr' })
    expect(status).toBe(409)
    expect(json.key).toBe('refusal.owner_last')
    expect(json.error).toBe(
      api.runtime.translator.render(
        { domain: 'common', key: 'refusal.owner_last', params: { principal: owner } },
        'fr',
      ),
    )
  })
})
