// Signal and Discord heal themselves in a running bot, against their loopback fakes: a refused first
// connection, a drop, and a half-open socket (the fake stops sending frames and never closes). Each
// reads reconnecting, in the same words, on /plugins, /health, the report, the HTTP API and the
// command line, and is live on all of them once the fake is back. No timing is asserted: the waits
// only bound how long the test looks before it fails.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { type FakeDiscord, startFakeDiscord } from '../../../spores/discord/test/fake/index.ts'
import { eventually, FakeDaemon } from '../../../spores/signal/test/fake/index.ts'
import { startWebBot, type WebBot } from '../http/web.ts'
import { realSpore } from '../support/real-spores.ts'
import { liveEverywhere, Surfaces, sameDownEverywhere } from './surfaces.ts'

const SPORES = join(import.meta.dir, '..', '..', '..', 'spores')
/** How long a channel has to be back once its far end is: the bound. */
const BACK_WITHIN_MS = 5_000
/** Short enough that a test sees several retries; the bot's defaults are 5 s, 1 s and a minute. */
const SUPERVISION = 'supervision: { healthEvery: 200, retryFirst: 100, retryMax: 500 }'
const RECONNECTING = /^reconnecting \(attempt \d+(, next in \d+ s)?\): \S/

const stateOf = (bot: WebBot, name: string) => bot.core.assembly.runtime.supervisor.stateOf(name)?.state

describe('signal, against a signal-cli daemon that fails in each way', () => {
  let daemon: FakeDaemon
  let bot: WebBot
  let surfaces: Surfaces
  beforeAll(async () => {
    daemon = FakeDaemon.start()
    daemon.goDown()
    bot = await startWebBot({
      spores: { signal: realSpore(join(SPORES, 'signal')) },
      config: SUPERVISION,
      settings: {
        signal: {
          account: daemon.account,
          transport: 'jsonrpc',
          address: daemon.socketPath,
          checkSeconds: 1,
        },
      },
    })
    surfaces = new Surfaces(bot)
  })
  afterAll(async () => {
    await bot?.stop()
    daemon?.close()
  })

  it('whose first connection is refused reads reconnecting everywhere, and is live once it answers', async () => {
    expect(stateOf(bot, 'signal')).toBe('reconnecting')
    const down = await surfaces.of('signal')
    expect(down.plugins.reason).toMatch(RECONNECTING)
    expect(sameDownEverywhere(down, RECONNECTING)).toBe('')
    daemon.comeBack()
    await eventually(() => stateOf(bot, 'signal') === 'live', 'signal back', BACK_WITHIN_MS)
    expect(liveEverywhere(await surfaces.of('signal'))).toBe('')
  })

  it('whose daemon drops the connection reads reconnecting at once, and is live once it is back', async () => {
    daemon.goDown()
    // Said by the channel itself the moment the socket closed: no health poll is waited for.
    await eventually(() => stateOf(bot, 'signal') === 'reconnecting', 'signal to notice the drop')
    expect(sameDownEverywhere(await surfaces.of('signal'), RECONNECTING)).toBe('')
    daemon.comeBack()
    await eventually(() => stateOf(bot, 'signal') === 'live', 'signal back', BACK_WITHIN_MS)
    expect(liveEverywhere(await surfaces.of('signal'))).toBe('')
  })

  it('whose daemon goes silent with the socket open is noticed, and is live once it answers again', async () => {
    daemon.goSilent()
    await eventually(() => stateOf(bot, 'signal') === 'reconnecting', 'signal to notice the silence')
    const down = await surfaces.of('signal')
    expect(down.plugins.reason).toContain('signal-cli stopped answering')
    expect(sameDownEverywhere(down, RECONNECTING)).toBe('')
    daemon.speakAgain()
    await eventually(() => stateOf(bot, 'signal') === 'live', 'signal back', BACK_WITHIN_MS)
    expect(liveEverywhere(await surfaces.of('signal'))).toBe('')
    const lines = bot.core
      .logs()
      .filter((line) => line.spore === 'signal' && line.msg === 'back: connected again')
    expect(lines.length).toBeGreaterThan(0)
  })
})

describe('discord, against a Discord that fails in each way', () => {
  let fake: FakeDiscord
  let bot: WebBot
  let surfaces: Surfaces
  beforeAll(async () => {
    fake = startFakeDiscord({ heartbeatInterval: 250, portalIntents: { messageContent: false } })
    bot = await startWebBot({
      spores: { discord: realSpore(join(SPORES, 'discord')) },
      config: SUPERVISION,
      settings: { discord: { token: fake.token, apiBaseUrl: fake.restApi } },
    })
    surfaces = new Surfaces(bot)
  })
  afterAll(async () => {
    await bot?.stop()
    await fake?.stop()
  })

  it('whose first connection is refused reads reconnecting everywhere, and is live once let in', async () => {
    const down = await surfaces.of('discord')
    expect(down.plugins.reason).toContain('Message Content Intent')
    expect(sameDownEverywhere(down, RECONNECTING)).toBe('')
    ;(fake.world.portalIntents as { messageContent: boolean }).messageContent = true
    await eventually(() => stateOf(bot, 'discord') === 'live', 'discord back', BACK_WITHIN_MS)
    expect(liveEverywhere(await surfaces.of('discord'))).toBe('')
  })

  it('whose gateway drops the connection, and stays out of reach a while, is live once it answers', async () => {
    fake.gateway.goSilent()
    fake.gateway.drop()
    await eventually(() => stateOf(bot, 'discord') === 'reconnecting', 'discord to notice the drop')
    expect(sameDownEverywhere(await surfaces.of('discord'), RECONNECTING)).toBe('')
    fake.gateway.speakAgain()
    await eventually(() => stateOf(bot, 'discord') === 'live', 'discord back', BACK_WITHIN_MS)
    expect(liveEverywhere(await surfaces.of('discord'))).toBe('')
  })

  it('whose gateway goes silent with the socket open is noticed, and is live once it answers again', async () => {
    fake.gateway.goSilent()
    await eventually(() => stateOf(bot, 'discord') === 'reconnecting', 'discord to notice the silence')
    expect(sameDownEverywhere(await surfaces.of('discord'), RECONNECTING)).toBe('')
    fake.gateway.speakAgain()
    await eventually(() => stateOf(bot, 'discord') === 'live', 'discord back', BACK_WITHIN_MS)
    expect(liveEverywhere(await surfaces.of('discord'))).toBe('')
  })
})
