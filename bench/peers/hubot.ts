// Hubot 14.1, the peer the message path is measured against: installed from npm on first use into
// a git-ignored folder, driven through its own listener path with an in-memory adapter.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Sent } from '../../core/test/support/runtime.ts'
import { chatMessage, type Timing, timePath } from '../figures.ts'

const HUBOT_VERSION = '14.1.0'
const PEERS = join(import.meta.dir, '..', '.peers')
const HUBOT = join(PEERS, 'node_modules', 'hubot')

/** Installs the pinned Hubot beside the bench unless that version is already there. */
export function ensureHubot(): string {
  const manifest = join(HUBOT, 'package.json')
  const installed = existsSync(manifest)
    ? (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version
    : undefined
  if (installed === HUBOT_VERSION) return HUBOT
  console.error(`bench: installing hubot@${HUBOT_VERSION} into bench/.peers (first use)`)
  const npm = Bun.spawnSync(
    [
      'npm',
      'install',
      '--prefix',
      PEERS,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      `hubot@${HUBOT_VERSION}`,
    ],
    { stdout: 'inherit', stderr: 'inherit' },
  )
  if (npm.exitCode !== 0) throw new Error(`bench: npm could not install hubot@${HUBOT_VERSION}`)
  return HUBOT
}

interface HubotModule {
  Robot: new (adapter: unknown, httpd: boolean, name: string) => HubotRobot
  Adapter: new (robot: HubotRobot) => object
  User: new (id: string, options: { room: string; name: string }) => object
  TextMessage: new (user: object, text: string, id: string) => object
}
interface HubotRobot {
  hear(
    pattern: RegExp,
    callback: (res: { match: RegExpMatchArray; send(text: string): Promise<unknown> }) => unknown,
  ): void
  loadAdapter(): Promise<void>
  receive(message: object): Promise<unknown>
  shutdown(): void
}

export interface HubotPeer {
  readonly sent: Sent[]
  say(message: ReturnType<typeof chatMessage>): Promise<void>
  stop(): void
}

/** A robot with /ping and /echo listeners, the same two answers the bench enzyme gives. */
export async function startHubot(): Promise<HubotPeer> {
  process.env.HUBOT_LOG_LEVEL ??= 'silent'
  const hubot = (await import(join(ensureHubot(), 'index.mjs'))) as HubotModule
  const sent: Sent[] = []
  class MemoryAdapter extends hubot.Adapter {
    async send(envelope: { room: string }, ...strings: string[]) {
      for (const text of strings) sent.push({ conversationId: envelope.room, content: { text } })
    }
    async reply(envelope: { room: string }, ...strings: string[]) {
      return this.send(envelope, ...strings)
    }
    async run() {}
    close() {}
  }
  const robot = new hubot.Robot({ use: (r: HubotRobot) => new MemoryAdapter(r) }, false, 'bench')
  await robot.loadAdapter()
  robot.hear(/^\/ping$/, (res) => res.send('pong'))
  robot.hear(/^\/echo (.*)$/, (res) => res.send(`echo: ${res.match[1]}`))
  const users = new Map<string, object>()
  const userOf = (id: string, room: string) => {
    const known = users.get(id)
    if (known) return known
    const user = new hubot.User(id, { room, name: id })
    users.set(id, user)
    return user
  }
  return {
    sent,
    async say(message) {
      const user = userOf(message.sender.externalId, message.conversationId)
      await robot.receive(new hubot.TextMessage(user, message.text, message.messageId))
    },
    stop: () => robot.shutdown(),
  }
}

/**
 * Hubot answering the steady workload: half /ping, half /echo, from `senders` people cycling; and
 * again once `jitWarmUp` more messages have gone (`settled`), as the path's own figure is.
 */
export async function hubotSteady(
  count: number,
  senders: number,
  jitWarmUp: number,
): Promise<Timing & { settled: Timing }> {
  const peer = await startHubot()
  try {
    const run = (n: number, offset: number) => ({
      count: n,
      sent: peer.sent,
      say: (i: number) =>
        peer.say(
          chatMessage({
            i,
            from: `p${(i + offset) % senders}`,
            text: i % 2 === 0 ? '/ping' : `/echo hello ${i}`,
          }),
        ),
      expected: (i: number) => (i % 2 === 0 ? 'pong' : `echo: hello ${i}`),
    })
    await timePath(run(2000, 1))
    const first = await timePath(run(count, 0))
    await timePath(run(jitWarmUp, 1))
    return { ...first, settled: await timePath(run(count, 0)) }
  } finally {
    peer.stop()
  }
}
