// What waits in the outbox and what it dropped, as the operator reads it: in a channel's health
// (chat's /health, the API and the page's overview show that detail) and in /metrics.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { MetricsRegistry } from '../../http/metrics.ts'
import { healthRead } from '../../mycelium/health.ts'
import { startTestCore, type TestCore } from '../support/runtime.ts'

/** A channel whose every send fails for now, as one that is reconnecting says. */
const FLAKY = {
  'spore.yaml': 'kind: hypha\nname: flaky\nseptum: "^1.0"\n',
  'src/index.ts': `export default {
  create: () => ({
    async connect() {},
    async listen() {},
    async stop() {},
    async send() { throw Object.assign(new Error('reconnecting'), { temporary: true }) },
    async health() { return { state: 'healthy', detail: 'up', checkedAt: new Date() } },
  }),
}
`,
}

describe('the outbox on the operator’s surfaces', () => {
  let core: TestCore
  beforeAll(async () => {
    core = await startTestCore({ spores: { flaky: FLAKY }, config: 'outbox: { maxAgeMinutes: 5 }\n' })
  })
  afterAll(async () => {
    await core.stop()
  })

  it('says in the channel’s health how many wait, and /metrics counts them per conversation', async () => {
    const { runtime } = core.assembly
    await runtime.hyphae.send({ channel: 'flaky', conversationId: 'room' }, { text: 'one' })
    await runtime.hyphae.send({ channel: 'flaky', conversationId: 'room' }, { text: 'two' })
    await runtime.hyphae.send({ channel: 'flaky', conversationId: 'hall' }, { text: 'three' })
    const flaky = (await healthRead(runtime).health()).find((answer) => answer.name === 'flaky')
    expect(flaky?.detail).toBe('up; outbox: 3 messages wait to be sent (2 conversations)')
    const text = new MetricsRegistry().render({
      germination: core.germination,
      store: core.store,
      outbox: runtime.outbox.report(),
    })
    expect(text).toContain('mycelo_outbox_waiting{channel="flaky",conversation="room"} 2')
    expect(text).toContain('mycelo_outbox_waiting{channel="flaky",conversation="hall"} 1')
    expect(text).toContain('mycelo_outbox_dropped_total{channel="flaky",reason="age"} 0')
    expect(runtime.outbox.report().maxAgeSeconds).toBe(300)
  })
})
