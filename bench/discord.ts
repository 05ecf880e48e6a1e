// Discord end to end: N messages injected at a fake Discord gateway, heard by the real discord.js
// client inside the discord spore, through the whole core path (a respond: command) and answered at
// the fake's REST endpoint — next to a floor measured in the same run: a bare discord.js client
// against its own fake that replies directly on messageCreate.
import { join } from 'node:path'
import { Client, Events, GatewayIntentBits, Partials } from 'discord.js'
import { startCoreWith } from '../core/test/support/boot-core.ts'
import { type FakeDiscord, startFakeDiscord } from '../spores/discord/test/fake/index.ts'
import { type SideFigures, sideFigures } from './chat-sides.ts'
import { BENCH_ENZYME } from './spores.ts'

/**
 * discord.js lets a client make 50 REST calls a second (Discord's global limit) and queues the rest
 * until the second is over. Each side therefore runs in bursts that stay under it, and waits out the
 * window between bursts; only the time inside a burst is measured.
 */
const BURST = 45
const WINDOW_MS = 1_000
const WINDOW_MARGIN_MS = 30
const WARM_UP = 2 * BURST

export interface DiscordFigures {
  readonly messages: number
  readonly core: SideFigures
  readonly floor: SideFigures
  /** How much the core adds to the floor's mean time per message, in percent. */
  readonly overheadPercent: number
  readonly wallSeconds: number
  /** Messages per burst, each burst inside one rate-limit window. */
  readonly burst: number
}

/** One way of answering: a fake Discord, a client that answers it, and what was measured so far. */
interface Side {
  readonly fake: FakeDiscord
  readonly latencies: number[]
  cpuUs: number
  /** When the current rate-limit window of this side's client is over. */
  nextWindowAt: number
  stop(): Promise<void>
}

const INTENTS = [
  GatewayIntentBits.Guilds,
  GatewayIntentBits.GuildMessages,
  GatewayIntentBits.MessageContent,
  GatewayIntentBits.DirectMessages,
  GatewayIntentBits.GuildMembers,
]

/** Long heartbeats, so none lands inside a measured burst more often on one side than the other. */
const fakeDiscord = () => startFakeDiscord({ heartbeatInterval: 40_000 })

async function coreSide(): Promise<Side> {
  const fake = fakeDiscord()
  const core = await startCoreWith({
    sporeFolders: [join(import.meta.dir, '..', 'spores', 'discord')],
    spores: { bench: BENCH_ENZYME },
    settings: { discord: { token: fake.token, apiBaseUrl: fake.restApi } },
    roles: { crowd: ['bench.*'] },
    grants: [{ channel: 'discord', externalId: fake.world.alice.user.id, roles: ['crowd'] }],
    logLevel: 'warn',
  })
  const discord = core.running.report().find((line) => line.name === 'discord')
  if (discord?.state !== 'live') throw new Error(`the discord spore is ${discord?.state}: ${discord?.reason}`)
  return sideOf(fake, () => core.stop())
}

/** The floor: the same client options the spore uses, answering on messageCreate with nothing between. */
async function floorSide(): Promise<Side> {
  const fake = fakeDiscord()
  const client = new Client({
    intents: INTENTS,
    partials: [Partials.Channel],
    rest: { api: fake.restApi },
    allowedMentions: { parse: ['users'], repliedUser: true },
  })
  client.on(Events.MessageCreate, (message) => {
    if (message.author.bot || !message.channel.isSendable()) return
    if (message.content === '/ping') void message.channel.send('pong')
  })
  const ready = new Promise((resolve) => client.once(Events.ClientReady, resolve))
  await client.login(fake.token)
  await ready
  return sideOf(fake, () => client.destroy())
}

function sideOf(fake: FakeDiscord, stopAnswering: () => Promise<void>): Side {
  return {
    fake,
    latencies: [],
    cpuUs: 0,
    nextWindowAt: 0,
    async stop() {
      await stopAnswering()
      await fake.stop()
    },
  }
}

/** Injects `/ping` and resolves once the reply has reached the fake's REST endpoint. */
async function ping(fake: FakeDiscord): Promise<number> {
  const requests = fake.rest.requests
  const before = requests.entries.length
  const path = `/channels/${fake.world.textChannelId}/messages`
  const started = performance.now()
  const replied = requests.waitFor(
    // Cheap for every request already recorded (the first test fails), so waiting costs no more late in the run.
    (request) => requests.entries.length > before && request.method === 'POST' && request.path === path,
    10_000,
  )
  fake.say({ channelId: fake.world.textChannelId, author: fake.world.alice, content: '/ping' })
  await replied
  return performance.now() - started
}

/**
 * One burst on both sides, interleaved message by message (inject, wait for the reply, then the
 * other side), so that whatever the machine is doing meanwhile falls on both alike. Starts once
 * both clients' rate-limit windows are over.
 */
async function burst(sides: readonly [Side, Side], count: number, record: boolean): Promise<void> {
  const wait = Math.max(...sides.map((side) => side.nextWindowAt)) - performance.now()
  if (wait > 0) await Bun.sleep(wait)
  for (const side of sides) side.nextWindowAt = performance.now() + WINDOW_MS + WINDOW_MARGIN_MS
  for (let index = 0; index < count; index += 1) {
    // Which side goes first alternates, so neither always follows the other's reply.
    const order = index % 2 === 0 ? sides : ([sides[1], sides[0]] as const)
    for (const side of order) {
      const cpu = process.cpuUsage()
      const latency = await ping(side.fake)
      if (!record) continue
      const used = process.cpuUsage(cpu)
      side.cpuUs += used.user + used.system
      side.latencies.push(latency)
    }
  }
}

function figures(side: Side): SideFigures {
  return sideFigures(side.latencies, side.cpuUs)
}

/** Checks both fakes saw one `pong` per message, so the figures describe replies that really came. */
function checkReplies(side: Side, expected: number, label: string): void {
  const replies = side.fake.rest.requests.entries.filter((request) => request.method === 'POST')
  const pongs = replies.filter((request) => (request.body as { content?: string }).content === 'pong')
  if (pongs.length !== expected || replies.length !== expected) {
    throw new Error(
      `${label}: expected ${expected} pong replies; the fake received ${replies.length} messages, ${pongs.length} of them pong`,
    )
  }
}

export async function discordPath(count: number): Promise<DiscordFigures> {
  const started = performance.now()
  const floor = await floorSide()
  const core = await coreSide()
  try {
    for (let done = 0; done < WARM_UP; done += BURST) await burst([floor, core], BURST, false)
    for (let done = 0; done < count; done += BURST) {
      await burst([floor, core], Math.min(BURST, count - done), true)
    }
    checkReplies(floor, WARM_UP + count, 'floor')
    checkReplies(core, WARM_UP + count, 'core')
  } finally {
    await core.stop()
    await floor.stop()
  }
  const coreFigures = figures(core)
  const floorFigures = figures(floor)
  return {
    messages: count,
    core: coreFigures,
    floor: floorFigures,
    overheadPercent: ((coreFigures.meanMs - floorFigures.meanMs) / floorFigures.meanMs) * 100,
    wallSeconds: (performance.now() - started) / 1_000,
    burst: BURST,
  }
}
