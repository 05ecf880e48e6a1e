// The connection bound: a slot is freed by a close, a revoked key, or a client gone quiet too long.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { MYCELIUM_SCOPES } from '@mycelo/septum'
import { botMcp, createMcp } from '../../agent/mcp/index.ts'
import { principalsRead } from '../../mycelium/principals.ts'
import { createAgentKey } from '../../store/agent-keys.ts'
import { type Bot, probeEnzyme, probeHypha, startBot } from '../mycelium/harness.ts'
import { connect, serveMcp } from './connect.ts'

let bot: Bot
let key: string

beforeAll(async () => {
  bot = await startBot({
    spores: { chat: probeHypha('chat'), admin: probeEnzyme('admin', { scopes: MYCELIUM_SCOPES }) },
  })
  const owner = (await principalsRead(bot.runtime).findByIdentity('chat', 'boss'))!.id
  key = createAgentKey(bot.store, { label: 'desktop', principalId: owner }).secret
})

afterAll(async () => {
  await bot.stop()
})

describe('the connection bound', () => {
  it('keeps a quiet connection while it is within its idle allowance', async () => {
    const endpoint = serveMcp(createMcp({ ...botMcp(bot.runtime), maxConnections: 1 }))
    const first = await connect(endpoint.url, { key })
    await expect(connect(endpoint.url, { key })).rejects.toThrow(
      'At most 1 agent connections may be open at once: close one first.',
    )
    expect(await first.execute('return 1')).toEqual({ ok: true, value: 1 })
    await first.close()
    await endpoint.stop()
  })

  it('gives the slot of a connection idle past its allowance to a new one (“keeps at most eight open connections in process memory”; “open atomically reserves the supplied connection bound”)', async () => {
    const endpoint = serveMcp(createMcp({ ...botMcp(bot.runtime), maxConnections: 1, idleMs: 0 }))
    const first = await connect(endpoint.url, { key })
    // Past an allowance of 0 ms, whatever the clock's grain.
    await Bun.sleep(2)
    const second = await connect(endpoint.url, { key })
    expect(await second.execute('return 2')).toEqual({ ok: true, value: 2 })
    // The first one's session is gone: its client is told to initialize again.
    await expect(first.execute('return 1')).rejects.toThrow()
    await second.close()
    await endpoint.stop()
  })
})
