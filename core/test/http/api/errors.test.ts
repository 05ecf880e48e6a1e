// What the API answers when something on the bot's side fails: a worded 500 and a log line, never
// a stack trace; an HttpError from whatever the API calls keeps its status and its words.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { HttpError } from '../../../http/api/index.ts'
import { type ApiGround, startApiGround } from './ground.ts'
import { API_SEED, API_SPORES } from './spores.ts'

let api: ApiGround
let failure: Error = new Error('the audit file is gone')
beforeAll(async () => {
  api = await startApiGround({
    spores: API_SPORES,
    ...API_SEED,
    audit: {
      list() {
        throw failure
      },
    },
  })
})
afterAll(() => api.stop())

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
    failure = new HttpError(503, 'api.sporeUnknown', { spore: 'ledger' })
    expect(await api.ask('GET', '/audit')).toMatchObject({
      status: 503,
      json: { key: 'api.sporeUnknown', error: 'No spore named "ledger" is installed.' },
    })
  })
})
