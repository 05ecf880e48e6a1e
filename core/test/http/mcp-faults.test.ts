// A running bot, an agent on /mcp, and a program that never yields, hoards memory or floods the bot
// with calls: the HTTP API and chat keep answering, and the bot's memory stays bounded.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { createAgentKey } from '../../store/agent-keys.ts'
import { type Connected, connect } from '../mcp/connect.ts'
import { startWebBot, type WebBot } from './web.ts'

/** The execute deadline the bot is configured with: long enough to be asked twice during it. */
const EXECUTE_MS = 5_000
/** How long the bot has to answer while the program runs (the bound the issue sets). */
const ANSWER_MS = 2_000
const MIB = 1024 * 1024

let bot: WebBot
let agent: Connected

beforeAll(async () => {
  bot = await startWebBot({ config: `timeouts:\n  execute: ${EXECUTE_MS}\n` })
  const { runtime } = bot.core.assembly
  const owner = runtime.directory.resolve({ channel: 'chat', externalId: 'owner' }).id
  const key = createAgentKey(runtime.store, { label: 'faults', principalId: owner }).secret
  agent = await connect(new URL('/mcp', bot.url), { key })
  // The endpoint and its first worker are ready before any fault is timed against them.
  expect(await agent.execute('return 1')).toEqual({ ok: true, value: 1 })
}, 60_000)

afterAll(async () => {
  await agent?.close()
  await bot?.stop()
})

function answeredWithin<T>(work: Promise<T>, what: string): Promise<T> {
  return Promise.race([
    work,
    Bun.sleep(ANSWER_MS).then(() => {
      throw new Error(`${what} did not answer within ${ANSWER_MS} ms`)
    }),
  ])
}

/** /healthz and a chat command, each answered within the bound. */
async function botAnswers(): Promise<void> {
  const health = await answeredWithin(fetch(`${bot.url}/healthz`), '/healthz')
  expect(health.status).toBe(200)
  const reply = await answeredWithin(bot.core.ask('/plugins'), 'chat')
  expect(reply.join('\n')).toContain('admin')
}

const NEVER_YIELDS = {
  'while (true) {}': 'while (true) {}',
  'while (true) { await 0 }': 'while (true) { await 0 }',
  'a catastrophic regex': 'return /^(a+)+$/.test("a".repeat(40) + "b")',
}

describe('an agent program off the bot’s thread', () => {
  for (const [what, program] of Object.entries(NEVER_YIELDS)) {
    it(`keeps the HTTP API and chat answering during ${what}, then stops it at the deadline`, async () => {
      let finished = false
      const running = agent.execute(program).finally(() => {
        finished = true
      })
      await Bun.sleep(200)
      await botAnswers()
      await botAnswers()
      // Both answers came while the program was still running.
      expect(finished).toBe(false)
      const result = await running
      expect(result).toEqual({
        ok: false,
        text: expect.stringContaining(`did not finish within ${EXECUTE_MS} ms`),
      })
      await botAnswers()
    }, 30_000)
  }

  it('keeps answering during a memory bomb, which fails out of memory in its worker only', async () => {
    const before = process.memoryUsage().rss
    const running = agent.execute('const hoard = []; while (true) hoard.push(new Array(1 << 20).fill(1))')
    await botAnswers()
    const result = await running
    expect(result).toEqual({ ok: false, text: expect.stringContaining('out of memory') })
    expect(process.memoryUsage().rss - before).toBeLessThan(256 * MIB)
    await botAnswers()
  }, 30_000)

  it('stops a flood of host calls at its bound, before it can grow the bot or outlive its deadline', async () => {
    const before = process.memoryUsage().rss
    const running = agent.execute(
      'const ps = []; for (let i = 0; i < 1e6; i++) ps.push(env.plugins.read.listPlugins({})); return (await Promise.all(ps)).length',
    )
    await botAnswers()
    const result = await running
    expect(result).toEqual({
      ok: false,
      text: expect.stringContaining('more than 32 operation calls waiting at once'),
    })
    expect(process.memoryUsage().rss - before).toBeLessThan(256 * MIB)
    // The agent goes on: its next program runs.
    expect(await agent.execute('return (await env.plugins.read.listPlugins({})).length > 0')).toEqual({
      ok: true,
      value: true,
    })
  }, 30_000)
})
