// Telegram end to end: N private messages handed to grammY by a fake Bot API's long poll, through
// the telegram spore and the whole core path (a respond: command), answered at the fake's
// sendMessage — next to a floor measured in the same run: a bare grammY bot polling its own fake
// and replying from its message handler.
import { join } from 'node:path'
import { Bot } from 'grammy'
import { startCoreWith } from '../core/test/support/boot-core.ts'
import { type FakeTelegram, startFakeTelegram } from '../sporangia/official/telegram/test/fake/index.ts'
import { botSide, type ChannelFigures, type ChatSide, measurePath } from './chat-sides.ts'
import { BENCH_ENZYME } from './spores.ts'

const WARM_UP = 50

function pingOn(fake: FakeTelegram): () => Promise<void> {
  return async () => {
    const sent = fake.api.sent
    const before = sent.entries.length
    const replied = sent.waitFor(
      (message) => sent.entries.length > before && 'text' in message && message.text === 'pong',
      10_000,
    )
    fake.say({ from: fake.world.alice, text: '/ping' })
    await replied
  }
}

const pongsOf = (fake: FakeTelegram) => () =>
  fake.api.sent.entries.filter((message) => 'text' in message && message.text === 'pong').length

async function coreSide(): Promise<ChatSide> {
  const fake = startFakeTelegram()
  const core = await startCoreWith({
    sporeFolders: [join(import.meta.dir, '..', 'sporangia', 'official', 'telegram')],
    spores: { bench: BENCH_ENZYME },
    settings: { telegram: { token: fake.token, apiRoot: fake.apiRoot } },
    roles: { crowd: ['bench.*'] },
    grants: [{ channel: 'telegram', externalId: String(fake.world.alice.user.id), roles: ['crowd'] }],
    logLevel: 'warn',
  })
  return botSide({ channel: 'telegram', core, fake, ping: pingOn(fake), pongs: pongsOf(fake) })
}

/** The floor: grammY's own long polling, answering /ping from its handler with nothing between. */
async function floorSide(): Promise<ChatSide> {
  const fake = startFakeTelegram()
  const bot = new Bot(fake.token, { client: { apiRoot: fake.apiRoot } })
  bot.command('ping', (ctx) => ctx.reply('pong'))
  const started = new Promise<void>((resolve) => void bot.start({ onStart: () => resolve() }))
  await started
  return {
    ping: pingOn(fake),
    pongs: pongsOf(fake),
    async stop() {
      await bot.stop()
      await fake.stop()
    },
  }
}

export function telegramPath(count: number): Promise<ChannelFigures> {
  return measurePath({ floorSide, coreSide, count, warmUp: WARM_UP })
}
