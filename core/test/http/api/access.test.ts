// Agent keys, the rescan of the spores folders and the configuration export over real HTTP, each
// through the function chat's admin spore (or the command line) calls, refused per role as in chat.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { parse } from 'yaml'
import { auditLog } from '../../../audit/log.ts'
import { exportConfiguration } from '../../../operations/config-as-code/export.ts'
import { writeSpore } from '../../boot/process.ts'
import { type ApiGround, startApiGround } from './ground.ts'
import { API_SEED, API_SPORES, VAULT_TOKEN } from './spores.ts'

let api: ApiGround
beforeAll(async () => {
  api = await startApiGround({ spores: API_SPORES, ...API_SEED })
  await api.say('hello', 'owner', 'family')
})
afterAll(() => api.stop())

interface Key {
  id: string
  label: string
  principalId: string
  revokedAt: string | null
  confirmIn: { channel: string; conversationId: string } | null
}

describe('agent keys', () => {
  it('creates a key for the session’s own principal and answers its secret this once, never in a list', async () => {
    const made = await api.ask('POST', '/agent-keys', { body: { label: 'laptop' } })
    expect(made.status).toBe(200)
    const secret = made.json.secret as string
    const key = made.json.key as Key
    expect(secret.length).toBeGreaterThan(20)
    expect(key).toMatchObject({ label: 'laptop', principalId: api.principal('owner'), revokedAt: null })
    const before = api.bodies.length
    const listed = await api.ask('GET', '/agent-keys')
    expect(listed.status).toBe(200)
    expect((listed.json.keys as Key[]).map((one) => one.id)).toContain(key.id)
    await api.ask('PUT', `/agent-keys/${key.id}/confirm`, { body: { where: 'client' } })
    await api.ask('GET', '/agent-keys', { as: 'mod' })
    // Nothing answered after the creation carries the secret, nor any hash-like field of it.
    for (const body of api.bodies.slice(before)) expect(body).not.toContain(secret)
    expect(Object.keys((listed.json.keys as Record<string, unknown>[])[0]!).sort()).toEqual([
      'confirmIn',
      'createdAt',
      'id',
      'label',
      'lastUsedAt',
      'principalId',
      'revokedAt',
    ])
    // The write is in the audit log, as chat's would be, without the secret.
    const logged = auditLog(api.runtime.store).list({ limit: 20 })
    expect(logged).toContainEqual(
      expect.objectContaining({ method: 'agents.manage.createAgentKey', outcome: 'ok', via: 'web' }),
    )
    expect(JSON.stringify(logged)).not.toContain(secret)
  })

  it('lists only the session’s own keys', async () => {
    expect((await api.ask('POST', '/agent-keys', { as: 'stew', body: { label: 'x' } })).status).toBe(403)
    const mine = (await api.ask('GET', '/agent-keys')).json.keys as Key[]
    expect(mine.every((key) => key.principalId === api.principal('owner'))).toBe(true)
  })

  it('refuses a key for another person, as chat does', async () => {
    const refused = await api.ask('POST', '/agent-keys', {
      body: { label: 'theirs', principalId: api.principal('mod') },
    })
    expect(refused).toMatchObject({ status: 403, json: { key: 'refusal.agent_key_own_only' } })
    expect(refused.json.error).toContain(api.principal('mod'))
  })

  it('sets where confirmations are asked, and revokes a key once', async () => {
    const key = (await api.ask('POST', '/agent-keys', { body: { label: 'ide' } })).json.key as Key
    const where = { channel: 'chat', conversationId: 'family' }
    expect((await api.ask('PUT', `/agent-keys/${key.id}/confirm`, { body: { where } })).status).toBe(200)
    const listed = (await api.ask('GET', '/agent-keys')).json.keys as Key[]
    expect(listed.find((one) => one.id === key.id)?.confirmIn).toEqual(where)
    expect((await api.ask('DELETE', `/agent-keys/${key.id}`)).status).toBe(200)
    expect(await api.ask('DELETE', `/agent-keys/${key.id}`)).toMatchObject({
      status: 409,
      json: { key: 'refusal.agent_key_revoked' },
    })
    expect(await api.ask('DELETE', '/agent-keys/nothing-here')).toMatchObject({
      status: 404,
      json: { key: 'refusal.agent_key_unknown' },
    })
    const after = (await api.ask('GET', '/agent-keys')).json.keys as Key[]
    expect(after.find((one) => one.id === key.id)?.revokedAt).not.toBeNull()
  })

  it('refuses every agent-key route to roles without the chat command', async () => {
    expect((await api.ask('GET', '/agent-keys', { as: 'mod' })).status).toBe(403)
    expect((await api.ask('POST', '/agent-keys', { as: 'mod', body: { label: 'm' } })).status).toBe(403)
    expect((await api.ask('DELETE', '/agent-keys/any', { as: 'mod' })).status).toBe(403)
    expect(
      (await api.ask('PUT', '/agent-keys/any/confirm', { as: 'mod', body: { where: 'client' } })).status,
    ).toBe(403)
  })

  it('answers a bad body with a 400 naming the field', async () => {
    expect(await api.ask('POST', '/agent-keys', { body: { label: '   ' } })).toMatchObject({
      status: 400,
      json: { key: 'api.body.invalid', field: 'label' },
    })
    expect(await api.ask('POST', '/agent-keys', { body: { label: 'a', colour: 'red' } })).toMatchObject({
      status: 400,
      json: { field: 'colour' },
    })
    expect(await api.ask('PUT', '/agent-keys/any/confirm', { body: { where: 'phone' } })).toMatchObject({
      status: 400,
      json: { field: 'where' },
    })
    expect(
      await api.ask('PUT', '/agent-keys/any/confirm', { body: { where: { channel: 'chat' } } }),
    ).toMatchObject({ status: 400, json: { field: 'where' } })
  })
})

describe('rescan', () => {
  it('finds a spore folder added to disk since start-up, disabled, and says which folders it refused', async () => {
    writeSpore(`${api.folder}/spores`, 'lantern', {
      'spore.yaml':
        'kind: enzyme\nname: lantern\nseptum: "^1.0"\ncommands:\n  - { name: glow, description: command.glow, respond: glow }\n',
      'translations/en.yaml': 'command:\n  glow: Glows\nglow: A warm light\n',
      'src/index.ts': 'export default { create: () => ({ handlers: {} }) }\n',
    })
    writeSpore(`${api.folder}/spores`, 'core', {
      'spore.yaml': 'kind: enzyme\nname: core\nseptum: "^1.0"\n',
      'src/index.ts': 'export default { create: () => ({ handlers: {} }) }\n',
    })
    const found = await api.ask('POST', '/spores/rescan')
    expect(found.status).toBe(200)
    expect(found.json.found).toEqual([expect.objectContaining({ name: 'lantern', state: 'disabled' })])
    expect(found.json.refused).toEqual([{ name: 'core', reason: expect.stringContaining('reserved') }])
    const listed = (await api.ask('GET', '/spores')).json.spores as { name: string; enabled: boolean }[]
    expect(listed).toContainEqual(expect.objectContaining({ name: 'lantern', enabled: false }))
    // Looked through again, nothing is new.
    expect((await api.ask('POST', '/spores/rescan')).json.found).toEqual([])
  })

  it('is refused to a role without /rescan', async () => {
    expect(await api.ask('POST', '/spores/rescan', { as: 'mod' })).toMatchObject({
      status: 403,
      json: { key: 'api.forbidden' },
    })
  })
})

describe('export', () => {
  it('answers the YAML the command line writes, secrets masked', async () => {
    const answer = await api.open('GET', '/export')
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toContain('application/yaml')
    expect(answer.headers.get('content-disposition')).toContain('attachment')
    const text = await answer.text()
    expect(text).not.toContain(VAULT_TOKEN)
    const document = parse(text) as { plugins: Record<string, { settings: Record<string, unknown> }> }
    expect(document.plugins.vault?.settings.token).toBe('••••')
    expect(parse(text)).toEqual(parse(await exportConfiguration(api.runtime, { secrets: false })))
  })

  it('is refused to every role short of the owner’s, the steward who hands out roles included', async () => {
    for (const as of ['mod', 'stew']) {
      expect(await api.ask('GET', '/export', { as })).toMatchObject({
        status: 403,
        json: { key: 'api.forbidden' },
      })
    }
  })
})
