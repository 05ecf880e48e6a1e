// What the API answers when something on the bot's side fails: a worded 500 and a log line, never
// a stack trace; an HttpError from whatever the API calls keeps its status and its words. And a
// reload, which the runtime offers through a port: its Outcome answered like every other.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { HttpError } from '../../../http/api/index.ts'
import { refused } from '../../../mycelium/outcome.ts'
import { type ApiGround, startApiGround } from './ground.ts'
import { API_SEED, API_SPORES } from './spores.ts'

let api: ApiGround
let failure: Error = new Error('the audit file is gone')
const reloaded: string[] = []
beforeAll(async () => {
  api = await startApiGround({
    spores: API_SPORES,
    ...API_SEED,
    audit: {
      list() {
        throw failure
      },
    },
    async reload(spore) {
      if (spore === 'beacon') return refused('strain_guard_enabled', { spore })
      reloaded.push(spore)
      return { ok: true }
    },
  })
})
let stopped = false
afterAll(async () => {
  if (!stopped) await api.stop()
})

describe('faults', () => {
  it('answers a fault with a worded 500 in the reader’s language, and logs what failed', async () => {
    const logged: string[] = []
    const untap = api.events.subscribe((event) => {
      if (event.type === 'log') logged.push(JSON.stringify(event.record))
    })
    const { status, json } = await api.ask('GET', '/audit', { locale: 'fr' })
    untap()
    expect(status).toBe(500)
    expect(json).toEqual({
      key: 'api.fault',
      error:
        'Quelque chose a échoué du côté du bot ; le journal dit quoi. Rien de ce que vous avez fait n’en est la cause.',
    })
    expect(
      logged.some(
        (line) => line.includes('the operator API failed') && line.includes('the audit file is gone'),
      ),
    ).toBe(true)
  })

  it('answers an HttpError with its own status and catalogue words', async () => {
    failure = new HttpError(503, 'api.sporeUnknown', { params: { spore: 'ledger' } })
    expect(await api.ask('GET', '/audit')).toMatchObject({
      status: 503,
      json: { key: 'api.sporeUnknown', error: 'No spore named "ledger" is installed.' },
    })
  })
})

describe('reload', () => {
  it('reloads through the runtime’s port, answering its refusal in the reader’s words', async () => {
    expect(await api.ask('POST', '/spores/vault/reload')).toMatchObject({ status: 200, json: { ok: true } })
    expect(reloaded).toEqual(['vault'])
    const refusal = await api.ask('POST', '/spores/beacon/reload', { locale: 'fr' })
    expect(refusal.status).toBe(409)
    expect(refusal.json.error).toBe(
      api.runtime.translator.render(refused('strain_guard_enabled', { spore: 'beacon' }).refusal, 'fr'),
    )
    expect((await api.ask('POST', '/spores/ghost/reload')).status).toBe(404)
    expect(reloaded).toEqual(['vault'])
  })
})

describe('shut-down', () => {
  it('reads nothing once closed: a stream waking after the store closed announces nothing and throws nothing', async () => {
    const heard: string[] = []
    api.events.subscribe((event) => heard.push(event.type))
    stopped = true
    await api.stop()
    expect(() => api.events.stateChanged()).not.toThrow()
    expect(api.events.closed).toBe(true)
    expect(heard).toEqual([])
  })
})
