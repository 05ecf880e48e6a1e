import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { startTestCore, type TestCore } from '../support/runtime.ts'
import { answered, answersAgain, FAULT_CONFIG, faultyEnzyme, PONG } from './fault-spores.ts'

// Each fault, in a handler of an isolated enzyme: what it does, and whether its host is ended for it.
const FAULTS: Record<string, string> = {
  spin: 'while (true) {}',
  microtasks: 'const loop = () => Promise.resolve().then(loop); loop(); await new Promise(() => {})',
  exits: 'process.exit(3)',
  timer: "setTimeout(() => { throw new Error('thrown in a timer') }, 10); await ctx.reply({ text: 'armed' })",
  rejects: "void Promise.reject(new Error('nobody caught this')); await ctx.reply({ text: 'armed' })",
  recurses: 'const down = (n) => down(n + 1) + 1; down(0)',
  // Allocating without ever yielding: its heap cannot be asked, so it is ended for not answering.
  hoards: 'const hoard = []; for (let i = 0; ; i++) hoard.push(new Array(8 * 1024 * 1024).fill(i))',
}

let core: TestCore
beforeAll(async () => {
  const spores: Record<string, Record<string, string>> = { pong: PONG }
  for (const [name, body] of Object.entries(FAULTS)) spores[name] = faultyEnzyme(name, body)
  core = await startTestCore({
    spores,
    config: FAULT_CONFIG,
    grants: { alice: ['owner'], bob: ['owner'] },
  })
}, 60_000)
afterAll(() => core?.stop())

describe('a fault in an isolated handler', () => {
  for (const name of Object.keys(FAULTS)) {
    it(`(${name}) costs its host only: another person is answered, the spore answers again, nothing is lost`, async () => {
      expect(await answered(core, `/${name}-ok`, 'alice', 10_000)).toEqual([`ok ${name}`])
      const faulting = answered(core, `/${name}`, 'alice', 20_000)
      await Bun.sleep(100)
      // Another person, another spore: answered within 2 s while the fault runs.
      expect(await answered(core, '/pong', 'bob', 2_000)).toEqual(['pong'])
      // The message that faulted was answered (its reply, a failure or a deadline line), not dropped.
      expect((await faulting).length).toBeGreaterThan(0)
      expect(await answered(core, '/pong', 'bob', 2_000)).toEqual(['pong'])
      expect(await answersAgain(core, name, 'alice')).toBe(true)
    })
  }
})
