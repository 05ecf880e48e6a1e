// Context rules, inhibitor confinement, broadcast targets, conversations, languages, health and the
// audit log over real HTTP, each through the function chat's admin spore calls.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { type ApiGround, startApiGround } from './ground.ts'
import { API_SEED, API_SPORES } from './spores.ts'

let api: ApiGround
beforeAll(async () => {
  api = await startApiGround({ spores: API_SPORES, ...API_SEED })
  await api.say('hello', 'owner', 'family')
})
afterAll(() => api.stop())

describe('context rules', () => {
  it('sets, lists and clears a rule; the message path reads it at once', async () => {
    expect((await api.ask('PUT', '/rules/vault.peek', { body: { allowed: ['dm'] } })).status).toBe(200)
    expect((await api.ask('GET', '/rules')).json.rules).toEqual([
      expect.objectContaining({ command: 'vault.peek', allowed: ['dm'] }),
    ])
    expect(api.runtime.restrictions.allowedKinds('vault.peek')).toEqual(['dm'])
    expect((await api.ask('DELETE', '/rules/vault.peek')).status).toBe(200)
    expect(await api.ask('DELETE', '/rules/vault.peek')).toMatchObject({
      status: 404,
      json: { key: 'refusal.context_rule_absent' },
    })
  })

  it('refuses an unknown command and an empty list, in the reader’s words', async () => {
    expect(await api.ask('PUT', '/rules/ghost.boo', { body: { allowed: ['dm'] } })).toMatchObject({
      status: 404,
      json: { key: 'refusal.command_unknown', error: expect.stringContaining('ghost.boo') },
    })
    expect(await api.ask('PUT', '/rules/vault.peek', { body: { allowed: [] } })).toMatchObject({
      status: 422,
      json: { key: 'refusal.kinds_empty' },
    })
  })
})

describe('inhibitor confinement', () => {
  it('confines a filter to channels and reads it back; refuses an unknown filter or channel', async () => {
    expect(
      (await api.ask('PUT', '/inhibitors/guard/channels', { body: { channels: ['chat'] } })).status,
    ).toBe(200)
    expect((await api.ask('GET', '/inhibitors/guard/channels')).json.channels).toEqual(['chat'])
    expect(api.runtime.restrictions.confinedTo('guard')).toEqual(['chat'])
    expect(await api.ask('GET', '/inhibitors/ghost/channels')).toMatchObject({
      status: 404,
      json: { key: 'refusal.inhibitor_unknown' },
    })
    expect(
      await api.ask('PUT', '/inhibitors/guard/channels', { body: { channels: ['telex'] } }),
    ).toMatchObject({
      status: 404,
      json: { key: 'refusal.channel_unknown' },
    })
  })
})

describe('broadcast targets', () => {
  it('adds, lists and removes a target; refuses an unknown channel and an absent target', async () => {
    const target = { channel: 'chat', conversationId: 'family' }
    expect((await api.ask('POST', '/broadcast-targets', { body: target })).status).toBe(200)
    expect((await api.ask('GET', '/broadcast-targets')).json.targets).toEqual([target])
    expect((await api.ask('DELETE', '/broadcast-targets/chat/family')).status).toBe(200)
    expect(await api.ask('DELETE', '/broadcast-targets/chat/family')).toMatchObject({
      status: 404,
      json: { key: 'refusal.broadcast_target_absent' },
    })
    expect(
      await api.ask('POST', '/broadcast-targets', { body: { channel: 'telex', conversationId: 'x' } }),
    ).toMatchObject({ status: 404, json: { key: 'refusal.channel_unknown' } })
    expect(
      await api.ask('POST', '/broadcast-targets', { body: { channel: 'chat', conversationId: ' ' } }),
    ).toMatchObject({ status: 422, json: { key: 'refusal.conversation_empty' } })
  })
})

describe('conversations and languages', () => {
  it('lists the conversations the bot has seen', async () => {
    const conversations = (await api.ask('GET', '/conversations')).json.conversations as Record<
      string,
      unknown
    >[]
    expect(conversations).toContainEqual(
      expect.objectContaining({ channel: 'chat', conversationId: 'family', kind: 'group' }),
    )
  })

  it('lists the languages, sets the session’s own and a conversation’s, refusing one no catalogue ships', async () => {
    expect((await api.ask('GET', '/locales')).json).toEqual({ locales: ['en', 'fr'], defaultLocale: 'en' })
    expect((await api.ask('PUT', '/me/locale', { as: 'stew', body: { locale: 'fr' } })).status).toBe(403)
    expect((await api.ask('PUT', '/me/locale', { body: { locale: 'fr' } })).status).toBe(200)
    expect((await api.ask('GET', '/me')).json.principal).toMatchObject({ locale: 'fr' })
    expect(
      (await api.ask('PUT', '/conversations/chat/family/locale', { body: { locale: 'fr' } })).status,
    ).toBe(200)
    expect(
      await api.ask('PUT', '/conversations/chat/nowhere/locale', { body: { locale: 'fr' } }),
    ).toMatchObject({
      status: 404,
      json: { key: 'refusal.conversation_unknown' },
    })
    const refused = await api.ask('PUT', '/me/locale', { body: { locale: 'tlh' }, locale: 'fr' })
    expect(refused).toMatchObject({ status: 422, json: { key: 'refusal.locale_unavailable' } })
    expect(refused.json.error).toBe(
      api.runtime.translator.render(
        { domain: 'common', key: 'refusal.locale_unavailable', params: { locale: 'tlh', locales: 'en, fr' } },
        'fr',
      ),
    )
  })
})

describe('health and the audit log', () => {
  it('answers the health each live rhiza reports', async () => {
    const { status, json } = await api.ask('GET', '/health', { as: 'mod' })
    expect(status).toBe(200)
    expect(json.health).toEqual([
      { name: 'beacon', state: 'healthy', detail: 'beacon is lit', checkedAt: new Date(0).toISOString() },
    ])
  })

  it('reads the audit log through the server’s port, passing the narrowing on and bounding the page', async () => {
    const { status, json } = await api.ask('GET', '/audit?limit=1&before=7&principal=someone')
    expect(status).toBe(200)
    expect((json.entries as unknown[]).length).toBe(1)
    expect(api.audit.asked?.at(-1)).toEqual({ limit: 1, before: 7, principalId: 'someone' })
    await api.ask('GET', '/audit?limit=100000&before=soon')
    expect(api.audit.asked?.at(-1)).toEqual({ limit: 500 })
  })
})
