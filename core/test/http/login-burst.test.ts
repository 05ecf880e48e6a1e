// The sign-in throttle counts an attempt when it starts, before its body is read, so attempts that
// race each other (headers and part of a body sent, then all finished at once) cannot each get a
// guess checked; and the codes a person types are drawn without bias.
import { afterEach, describe, expect, it } from 'bun:test'
import { CODE_ALPHABET, randomCode } from '../../http/secrets.ts'
import {
  LOGIN_ATTEMPTS_ALLOWED,
  LOGIN_IN_FLIGHT_PER_ADDRESS,
  LOGIN_IN_FLIGHT_TOTAL,
} from '../../http/throttle.ts'
import { type RawExchange, rawExchange } from './raw-http.ts'
import { startWebBot, tokenOf, type WebBot } from './web.ts'

let bot: WebBot | undefined
afterEach(async () => {
  await bot?.stop()
  bot = undefined
})

const GUESS = '{"ticket":"WRONGCODE1"}'
const SPLIT = 10

/** Opens `count` sign-ins, each with its head and the first bytes of a wrong guess, from `from(i)`. */
async function halfSent(web: WebBot, count: number, from: (index: number) => string): Promise<RawExchange[]> {
  return Promise.all(
    Array.from({ length: count }, (_, index) =>
      rawExchange({
        url: web.url,
        method: 'POST',
        path: '/api/v1/session/login',
        from: from(index),
        headers: {
          'content-type': 'application/json',
          'content-length': String(GUESS.length),
          origin: web.url,
        },
        body: GUESS.slice(0, SPLIT),
      }),
    ),
  )
}

/**
 * Waits until `count` of them are answered while their bodies are still unfinished (the throttle
 * refuses those from their heads), or a few seconds pass, whichever is first.
 */
async function answeredEarly(exchanges: readonly RawExchange[], count: number): Promise<void> {
  let answered = 0
  await Promise.race([
    new Promise<void>((resolve) => {
      if (count === 0) resolve()
      for (const exchange of exchanges)
        exchange.answer.then(() => {
          if (++answered >= count) resolve()
        })
    }),
    Bun.sleep(5_000),
  ])
}

/** The app is loaded at the first request: loaded before a burst, it meets every head as it comes. */
async function warm(web: WebBot): Promise<void> {
  await fetch(`${web.url}/api/v1/session`)
}

/** Finishes every body at once; answers how many guesses were checked (401) and throttled (429). */
async function finishAll(exchanges: readonly RawExchange[]) {
  await Promise.all(exchanges.map((exchange) => exchange.write(GUESS.slice(SPLIT))))
  const answers = await Promise.all(exchanges.map((exchange) => exchange.answer))
  for (const exchange of exchanges) exchange.close()
  const statuses = answers.map((answer) => answer.status)
  return {
    checked: statuses.filter((status) => status === 401).length,
    throttled: statuses.filter((status) => status === 429).length,
    other: statuses.filter((status) => status !== 401 && status !== 429),
  }
}

describe('a burst of sign-ins', () => {
  it('from one address: 150 half-sent guesses finished at once get at most the allowed number checked', async () => {
    bot = await startWebBot()
    const web = bot
    await warm(web)
    const burst = await halfSent(web, 150, () => '127.0.0.1')
    await answeredEarly(burst, 150 - LOGIN_IN_FLIGHT_PER_ADDRESS)
    const counted = await finishAll(burst)
    expect(counted.other).toEqual([])
    expect(counted.checked).toBeGreaterThan(0)
    expect(counted.checked).toBeLessThanOrEqual(LOGIN_ATTEMPTS_ALLOWED)
    expect(counted.throttled).toBe(150 - counted.checked)
    // Another burst once those are done: the address has used its tries, so none is checked.
    const again = await finishAll(await halfSent(web, 20, () => '127.0.0.1'))
    expect(again.checked + counted.checked).toBeLessThanOrEqual(LOGIN_ATTEMPTS_ALLOWED)
    // The good link, from that address, waits too; it is not spent.
    const good = await web.client.send('/api/v1/session/login', { body: { ticket: tokenOf(web.loginLink) } })
    expect(good.status).toBe(429)
    expect(good.body.key).toBe('http.error.throttled')
  })

  it('from many addresses: no more sign-ins are under way at once than the total allows', async () => {
    bot = await startWebBot()
    // 60 connections from 30 loopback addresses, two each: every address is within its own tries.
    await warm(bot)
    const burst = await halfSent(bot, 60, (index) => `127.0.0.${2 + (index % 30)}`)
    await answeredEarly(burst, 60 - LOGIN_IN_FLIGHT_TOTAL)
    const counted = await finishAll(burst)
    expect(counted.other).toEqual([])
    expect(counted.checked).toBeGreaterThan(0)
    expect(counted.checked).toBeLessThanOrEqual(LOGIN_IN_FLIGHT_TOTAL)
    expect(counted.throttled).toBe(60 - counted.checked)
  })
})

describe('a login code', () => {
  it('draws every character equally often from evenly spread bytes, throwing away the ones that would fold back', () => {
    let next = 0
    // Every byte value in turn, forever: a fair draw turns 240 of each 256 into 8 of each character.
    const sweep = (size: number) => Uint8Array.from({ length: size }, () => next++ % 256)
    const counts = new Map<string, number>()
    for (let drawn = 0; drawn < 2400; drawn++) {
      for (const character of randomCode(sweep)) counts.set(character, (counts.get(character) ?? 0) + 1)
    }
    expect([...counts.keys()].sort()).toEqual([...CODE_ALPHABET].sort())
    const spread = new Set(counts.values())
    expect(spread.size).toBe(1)
  })

  it('is ten characters of the alphabet from the system’s own randomness', () => {
    for (let drawn = 0; drawn < 50; drawn++) expect(randomCode()).toMatch(/^[ABCDEFGHJKMNPQRSTVWXYZ2-9]{10}$/)
  })
})
