import { expect, it } from 'bun:test'
import { startTestCore } from '../support/runtime.ts'

const SLOW = {
  'spore.yaml': `kind: enzyme
name: slow
septum: "^1.0"
commands:
  - name: slow
    description: slow.description
    code: slow
`,
  'src/index.ts': `
export default {
  create: () => ({
    handlers: {
      async slow(invocation, ctx) {
        await new Promise((resolve) => { globalThis.releaseSlow = resolve })
        await ctx.reply({ text: 'finished' })
      },
    },
  }),
}
`,
}

it('finishes a dispatch in flight before it stops the spores and closes the store', async () => {
  const core = await startTestCore({ spores: { slow: SLOW } })
  const sent = core.sent
  const chat = core.germination.byName.get('chat')!.instance as { stop(): Promise<void> }
  let sentWhenStopped = -1
  const stop = chat.stop.bind(chat)
  chat.stop = () => {
    sentWhenStopped = sent.length
    return stop()
  }
  const answered = core.say('/slow')
  while (!(globalThis as { releaseSlow?: () => void }).releaseSlow) await Bun.sleep(5)
  const stopped = core.stop()
  // A message arriving while shutting down is not taken.
  await core.say('/slow')
  ;(globalThis as { releaseSlow?: () => void }).releaseSlow!()
  await Promise.all([answered, stopped])
  expect(sent.map((s) => s.content.text)).toEqual(['finished'])
  expect(sentWhenStopped).toBe(1)
})

it("asks a hypha for a group's members once, then answers from a brief cache", async () => {
  const core = await startTestCore({ spores: {} })
  try {
    const chat = core.germination.byName.get('chat')!.instance as {
      listGroupMembers(id: string): Promise<unknown>
    }
    let asked = 0
    const original = chat.listGroupMembers.bind(chat)
    chat.listGroupMembers = (id) => {
      asked++
      return original(id)
    }
    const { hyphae } = core.assembly.runtime
    expect(await hyphae.groupMembers('chat', 'g1')).toEqual([{ channel: 'chat', externalId: 'g1-member' }])
    await hyphae.groupMembers('chat', 'g1')
    expect(asked).toBe(1)
    await hyphae.groupMembers('chat', 'g1', Date.now() + 60_000)
    expect(asked).toBe(2)
  } finally {
    await core.stop()
  }
})
