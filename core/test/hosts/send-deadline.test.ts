// An isolated hypha's send is bounded by the outbox's try (outbox.sendWithinSeconds), not cut by
// the bridge at timeouts.send: a send the platform takes slowly is sent once, and one confirmed
// just after the outbox's try gave up is settled rather than sent a second time.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { startTestCore, type TestCore } from '../support/runtime.ts'

/** A hypha in its own host that takes `wait:<ms>` to send, writing a line per send it was handed. */
const SLOWPOST = {
  'spore.yaml': 'kind: hypha\nname: slowpost\nseptum: "^1.0"\ncapabilities: []\n',
  'src/index.ts': `
import { appendFileSync } from 'node:fs'
import { join } from 'node:path'
const log = join(import.meta.dir, '..', 'sends.log')
export default {
  create: () => ({
    async connect() {},
    async listen() {},
    async stop() {},
    async send(conversationId, content) {
      appendFileSync(log, content.text + '\\n')
      await Bun.sleep(Number(content.text.split(':')[1] ?? 0))
    },
  }),
}
`,
}

let core: TestCore
beforeAll(async () => {
  core = await startTestCore({
    spores: { slowpost: SLOWPOST },
    config: `timeouts: { send: 150, stop: 1000 }
outbox: { sendWithinSeconds: 1 }
isolation:
  default: worker
  spores: { chat: inline }
`,
  })
})
afterAll(() => core?.stop())

const sends = () =>
  readFileSync(join(core.germination.byName.get('slowpost')!.dir, 'sends.log'), 'utf8')
    .trim()
    .split('\n')

async function untilSent(): Promise<void> {
  for (let tries = 0; tries < 200 && core.assembly.runtime.outbox.waiting('slowpost') > 0; tries++)
    await Bun.sleep(20)
  expect(core.assembly.runtime.outbox.waiting('slowpost')).toBe(0)
}

describe("an isolated hypha's send", () => {
  it('runs as long as the outbox lets a try run, past timeouts.send, and is sent once', async () => {
    expect(core.germination.byName.get('slowpost')!.state).toBe('live')
    const { hyphae } = core.assembly.runtime
    // The caller hears "accepted" at timeouts.send; the try goes on, the bridge does not cut it.
    await hyphae.send({ channel: 'slowpost', conversationId: 'c' }, { text: 'wait:500' })
    await untilSent()
    await Bun.sleep(800)
    expect(sends()).toEqual(['wait:500'])
    const lines = core.logs().map((line) => line.msg)
    expect(lines).not.toContain('deadline passed')
    expect(lines).not.toContain('outbox: not sent for now; trying again')
  })

  it('is settled, not sent again, when the platform confirms it just after the try gave up', async () => {
    const { hyphae } = core.assembly.runtime
    await hyphae.send({ channel: 'slowpost', conversationId: 'late' }, { text: 'wait:1080' })
    await untilSent()
    // The retry would have come 500 ms after the try gave up: none did.
    await Bun.sleep(900)
    expect(sends()).toEqual(['wait:500', 'wait:1080'])
    expect(core.logs().find((line) => line.msg === 'deadline passed')).toMatchObject({
      spore: 'slowpost',
      step: 'send() on slowpost',
    })
  })
})
