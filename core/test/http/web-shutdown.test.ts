import { describe, expect, it } from 'bun:test'
import { realSpore } from '../support/real-spores.ts'
import { startWebBot } from './web.ts'

describe('a stream open on a spore route at shut-down', () => {
  it('does not hold the bot from stopping: the core ends it', async () => {
    const bot = await startWebBot({ spores: { web: realSpore('web') } })
    const owner = await bot.client.signIn(bot.loginLink.slice(bot.loginLink.indexOf('#') + 1))
    const response = await fetch(`${bot.url}/spores/web/stream`, { headers: { cookie: owner.cookie } })
    expect(response.status).toBe(200)
    const reader = response.body!.getReader()
    await reader.read()
    await bot.stop()
    // The stream ended with the bot rather than hanging it.
    let done = false
    while (!done) done = (await reader.read().catch(() => ({ done: true }))).done
    expect(done).toBe(true)
  })
})
