import { describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { DormantSporeError, RefusedCommandError, testBot } from '@mycelo/septum/testing'
import moviesModule from '../../sporangia/official/movies/src/index.ts'
import helper from './fixtures/conformance/radarr-helper/src/index.ts'
import greeter from './fixtures/packaged/greeter/src/index.ts'

const GREETER = join(import.meta.dir, 'fixtures', 'packaged', 'greeter')
const HELPER = join(import.meta.dir, 'fixtures', 'conformance', 'radarr-helper')
const MOVIES = join(import.meta.dir, '..', '..', 'sporangia', 'official', 'movies')

describe('the test bot', () => {
  it('answers respond: and code: commands through the bot’s own parsing, bare or qualified', async () => {
    const bot = await testBot({ spore: { from: HELPER, module: helper } })
    expect(await bot.say('/help')).toEqual(['Try /add <title> to queue a movie.'])
    expect(await bot.say('/radarr-helper.add "The Matrix"')).toEqual(['queued The Matrix'])
    expect(await bot.say('/add')).toEqual(['queued nothing'])
    expect(await bot.say('not a command')).toEqual([])
    await bot.stop()
  })

  it('speaks the reader’s locale, falling back to the default locale per key', async () => {
    const bot = await testBot({ spore: { from: join(GREETER, 'test', 'greeter.test.ts'), module: greeter } })
    expect(await bot.say('/greet Ada Lovelace', { locale: 'fr' })).toEqual(['Hello, Ada Lovelace !'])
    expect(await bot.say('/greet Ada', { locale: 'de' })).toEqual(['Hello, Ada!'])
    await bot.stop()
  })

  it('refuses what the bot refuses before a handler runs, saying why', async () => {
    const bot = await testBot({
      spore: { from: HELPER, module: helper },
      roles: { member: ['radarr-helper.help'], owner: ['*'] },
      channels: { signal: ['attachments'] },
    })
    await expect(bot.say('/nothing')).rejects.toThrow(new RefusedCommandError('unknown command /nothing'))
    await expect(bot.say('/add x', { person: 'bob' })).rejects.toThrow(
      'bob (roles: member) may not use radarr-helper.add',
    )
    expect(await bot.say('/add x', { roles: ['owner'] })).toEqual(['queued x'])
    await expect(bot.say('/add x', { roles: ['owner'], channel: 'signal' })).rejects.toThrow(
      '/add needs reactions, which signal cannot do',
    )
    await bot.stop()
  })

  it('leaves dormant what germination would: settings, range, a missing rhiza', async () => {
    await expect(
      testBot({ spore: { from: GREETER, module: greeter, settings: { greeting: '' } } }),
    ).rejects.toThrow(/^greeter would be dormant: configuration is incomplete: greeting: /)
    const old = testBot({ spore: { from: GREETER, module: greeter }, septumVersion: '1.0.0' })
    await expect(old).rejects.toBeInstanceOf(DormantSporeError)
    await expect(old).rejects.toThrow('^1.1')
    await expect(testBot({ spore: { from: MOVIES, module: moviesModule } })).rejects.toThrow(
      'movies would be dormant: it requires radarr',
    )
  })
})
