import { describe, expect, it } from 'bun:test'
import { FakeMycelium } from './fake-mycelium.ts'
import { run } from './harness.ts'

/** Types `/set tuner <key> <value>` and answers the reply and what was stored. */
async function setTuner(key: string, value: string, options: { rest?: string; locale?: string } = {}) {
  const mycelium = new FakeMycelium()
  const { reply } = await run(mycelium, 'set', {
    args: { spore: 'tuner', key, value },
    ...(options.rest ? { rest: options.rest } : {}),
    ...(options.locale ? { locale: options.locale } : {}),
  })
  const stored = mycelium.stored.get('tuner') ?? {}
  return { reply, stored: Object.hasOwn(stored, key), value: stored[key] }
}

describe('admin: a typed setting is read by its schema type', () => {
  it('keeps text as text where the schema wants text: digits, and a word an enum lists', async () => {
    expect((await setTuner('phone', '15551234567')).value).toBe('15551234567')
    expect((await setTuner('phone', 'true')).value).toBe('true')
    expect((await setTuner('mode', 'fast')).value).toBe('fast')
  })

  it('reads a whole number strictly, and refuses one past the exact range rather than round it', async () => {
    expect((await setTuner('port', '8080')).value).toBe(8080)
    const notWhole = await setTuner('port', '80.5')
    expect(notWhole.reply).toBe('port of tuner takes a whole number; that value is not one.')
    expect(notWhole.stored).toBe(false)
    expect((await setTuner('port', '8080abc')).stored).toBe(false)
    const huge = await setTuner('port', '123456789012345678901')
    expect(huge.reply).toBe('That number is too large to be stored exactly as port of tuner.')
    expect(huge.stored).toBe(false)
  })

  it('reads a number, and refuses one that is not finite instead of storing null', async () => {
    expect((await setTuner('ratio', '0.75')).value).toBe(0.75)
    expect((await setTuner('ratio', '-2e3')).value).toBe(-2000)
    expect((await setTuner('ratio', 'lots')).reply).toBe(
      'ratio of tuner takes a number; that value is not one.',
    )
    const infinite = await setTuner('ratio', '1e999')
    expect(infinite.reply).toBe('That number is too large to be stored exactly as ratio of tuner.')
    expect(infinite.stored).toBe(false)
  })

  it('reads true or false, and nothing else, where the schema wants a boolean', async () => {
    expect((await setTuner('strict', 'true')).value).toBe(true)
    expect((await setTuner('strict', 'FALSE')).value).toBe(false)
    const yes = await setTuner('strict', 'yes', { locale: 'fr' })
    expect(yes.reply).toBe('strict de tuner attend true ou false ; cette valeur n’en est pas un.')
    expect(yes.stored).toBe(false)
  })

  it('reads a list as JSON, its bare numbers kept digit for digit where it lists text', async () => {
    expect((await setTuner('guilds', '["123456789012345678", "42"]')).value).toEqual([
      '123456789012345678',
      '42',
    ])
    expect((await setTuner('guilds', '[123456789012345678901, 42]')).value).toEqual([
      '123456789012345678901',
      '42',
    ])
    expect((await setTuner('sizes', '[1, 2]')).value).toEqual([1, 2])
    // An integer that cannot be a number exactly is kept as its digits: the plugin's schema judges it.
    expect((await setTuner('sizes', '[123456789012345678901]')).value).toEqual(['123456789012345678901'])
    const single = await setTuner('guilds', '123')
    expect(single.reply).toBe(
      'guilds of tuner takes a list, written as JSON such as ["a", "b"]; that value is not one.',
    )
    expect(single.stored).toBe(false)
  })

  it('reads an object as JSON', async () => {
    expect((await setTuner('limits', '{"daily": 3}')).value).toEqual({ daily: 3 })
    expect((await setTuner('limits', '[3]')).reply).toBe(
      'limits of tuner takes an object, written as JSON; that value is not one.',
    )
  })

  it('falls back to JSON-or-text for a union, never rounding a long id and refusing an infinite number', async () => {
    expect((await setTuner('retries', '3')).value).toBe(3)
    expect((await setTuner('retries', 'null')).value).toBeNull()
    expect((await setTuner('retries', '123456789012345678901')).value).toBe('123456789012345678901')
    expect((await setTuner('retries', '[1e999]')).stored).toBe(false)
    // Digits inside a word are not a number.
    expect((await setTuner('retries', 'x1e999')).value).toBe('x1e999')
  })
})

describe('admin: unset', () => {
  it('removes a stored setting, in the reader’s language, and renders a refusal', async () => {
    const mycelium = new FakeMycelium()
    const unset = (key: string, locale?: string) =>
      run(mycelium, 'unset', { args: { spore: 'radarr', key }, ...(locale ? { locale } : {}) })
    expect((await unset('url')).reply).toBe('url of radarr is removed; it applies when radarr is enabled.')
    expect(mycelium.stored.get('radarr')).toEqual({})
    await run(mycelium, 'set', { args: { spore: 'radarr', key: 'url', value: 'http://h:1' } })
    expect((await unset('url', 'fr')).reply).toBe(
      'url de radarr est retiré ; le changement s’applique quand radarr sera activée.',
    )
    expect((await unset('url')).reply).toBe('radarr has no stored value for url.')
    expect((await run(mycelium, 'unset', { args: { spore: 'ghost', key: 'url' } })).reply).toBe(
      'No plugin called ghost is installed.',
    )
  })

  it('answers its usage sentence when the key is missing', async () => {
    expect((await run(new FakeMycelium(), 'unset', { args: { spore: 'radarr' } })).reply).toBe(
      'Usage: /unset <spore> <key>',
    )
  })
})
