// The API as a whole: every route documented in openapi.json, every guarded route refused 403 to
// a session whose roles lack its pattern, every body checked (400 naming the field) before any
// mycelium function runs.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { apiRouteTable } from '../../../http/api/index.ts'
import type { ApiRoute } from '../../../http/api/route.ts'
import { type ApiGround, startApiGround } from './ground.ts'
import { testSessionPort } from './session.ts'
import { API_SEED, API_SPORES, VAULT_TOKEN } from './spores.ts'

let api: ApiGround
let table: ApiRoute[]
beforeAll(async () => {
  api = await startApiGround({ spores: API_SPORES, ...API_SEED })
  const { runtime, events, audit } = api
  table = apiRouteTable({ runtime, events, audit, session: testSessionPort(runtime) })
})
afterAll(() => api.stop())

/** A concrete path for a route: every parameter filled with a name nothing has. */
const concrete = (entry: ApiRoute) => entry.path.replace(/:[A-Za-z]+/g, 'nothing-here')

describe('openapi.json', () => {
  it('documents every route the API mounts, with its guard and its body’s JSON Schema', async () => {
    const { status, json } = await api.ask('GET', '/openapi.json')
    expect(status).toBe(200)
    expect(json.openapi).toBe('3.1.0')
    const paths = json.paths as Record<string, Record<string, Record<string, unknown>>>
    const documented = Object.entries(paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method} ${path}`),
    )
    const mounted = table.map((entry) => `${entry.method} ${entry.path.replace(/:([A-Za-z]+)/g, '{$1}')}`)
    expect(documented.sort()).toEqual(mounted.sort())
    expect(mounted.length).toBeGreaterThan(40)
    for (const entry of table) {
      const operation = paths[entry.path.replace(/:([A-Za-z]+)/g, '{$1}')]![entry.method]!
      expect(operation['x-command-pattern']).toBe(entry.command)
      if (entry.body) {
        const body = operation.requestBody as { content: Record<string, { schema: { type: string } }> }
        expect(body.content['application/json']!.schema.type).toBe('object')
      } else expect(operation.requestBody).toBeUndefined()
    }
    const install = paths['/installs']!.post!.requestBody as { content: Record<string, { schema: unknown }> }
    expect(install.content['application/json']!.schema).toMatchObject({
      required: ['source', 'spore'],
      properties: { source: { type: 'string' }, strain: { type: 'string' } },
    })
  })
})

describe('authorization per role', () => {
  it('refuses a moderator every route their roles do not allow, in their language, changing nothing', async () => {
    const held = new Set(['admin.plugins', 'admin.people', 'admin.enable', 'admin.health'])
    const before = JSON.stringify(await api.ask('GET', '/spores'))
    let refusedCount = 0
    for (const entry of table) {
      if (entry.command === undefined || held.has(entry.command)) continue
      const answer = await api.ask(entry.method.toUpperCase(), concrete(entry), {
        as: 'mod',
        locale: 'fr',
        ...(entry.method === 'get' ? {} : { body: {} }),
      })
      expect({ route: `${entry.method} ${entry.path}`, status: answer.status, key: answer.json.key }).toEqual(
        {
          route: `${entry.method} ${entry.path}`,
          status: 403,
          key: 'api.forbidden',
        },
      )
      expect(answer.json.error).toBe(
        `Vos rôles n’autorisent pas ${entry.command}, qui protège aussi cette action dans le chat.`,
      )
      refusedCount++
    }
    expect(refusedCount).toBeGreaterThan(30)
    expect(JSON.stringify(await api.ask('GET', '/spores'))).toBe(before)
  })

  it('lets the moderator do what their patterns allow', async () => {
    for (const path of ['/report', '/spores', '/principals', '/health', '/me', '/locales']) {
      expect({ path, status: (await api.ask('GET', path, { as: 'mod' })).status }).toEqual({
        path,
        status: 200,
      })
    }
    expect(await api.ask('POST', '/spores/ghost/enable', { as: 'mod' })).toMatchObject({
      status: 404,
      json: { key: 'refusal.plugin_unknown' },
    })
    expect((await api.ask('POST', '/spores/vault/disable', { as: 'mod' })).status).toBe(403)
  })
})

describe('request bodies', () => {
  it('answers 400 to a body that is not JSON, on every route that takes one', async () => {
    for (const entry of table.filter((candidate) => candidate.body)) {
      const answer = await api.ask(entry.method.toUpperCase(), concrete(entry), { raw: '{ not json' })
      expect({ route: entry.path, status: answer.status, key: answer.json.key }).toEqual({
        route: entry.path,
        status: 400,
        key: 'api.body.notJson',
      })
    }
  })

  it('answers 400 naming the field, on every route that takes a body', async () => {
    for (const entry of table.filter((candidate) => candidate.body)) {
      const answer = await api.ask(entry.method.toUpperCase(), concrete(entry), { body: { bogus: true } })
      expect({ route: entry.path, status: answer.status }).toEqual({ route: entry.path, status: 400 })
      expect(answer.json.field).toBeString()
      expect(answer.json.field).not.toBe('')
      expect(answer.json.error).toContain(answer.json.field as string)
    }
  })

  it('names the exact field: a wrong type, a missing one, an unknown one, an item in a list', async () => {
    const field = async (path: string, body: unknown, method = 'POST') =>
      (await api.ask(method, path, { body })).json.field
    expect(await field('/roles', { name: 7, patterns: [] })).toBe('name')
    expect(await field('/roles', { name: 'x' })).toBe('patterns')
    expect(await field('/roles', { name: 'x', patterns: ['a', 3] })).toBe('patterns[1]')
    expect(await field('/installs', { source: 's', spore: 'p', colour: 'red' })).toBe('colour')
    const fr = await api.ask('PUT', '/rules/vault.peek', { body: { allowed: ['everywhere'] }, locale: 'fr' })
    expect(fr.status).toBe(400)
    expect(fr.json.error).toBe(
      'Le corps de la requête est refusé en allowed[0] : Option invalide : une valeur parmi "dm"|"group" attendue',
    )
  })
})

describe('secrets', () => {
  it('answers every read route for the owner without the stored secret in any body', async () => {
    const reads = table.filter((entry) => entry.method === 'get' && entry.streams === undefined)
    for (const entry of reads) {
      // Every parameter names the spore holding the secret, so its routes answer about it.
      const answer = await api.ask('GET', entry.path.replace(/:[A-Za-z]+/g, 'vault'))
      expect({ route: entry.path, status: answer.status }).not.toEqual({ route: entry.path, status: 500 })
    }
    expect((await api.ask('GET', '/spores/vault/settings')).json.values).toEqual({ token: '••••' })
    expect(api.bodies.length).toBeGreaterThan(reads.length)
    for (const body of api.bodies) expect(body).not.toContain(VAULT_TOKEN)
  })
})
