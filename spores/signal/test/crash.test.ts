// kill -9 in the middle of a burst Signal rate-limits, then a new start on the same folder: every
// reply the bot accepted reaches signal-cli once, in the order it was accepted.
import { afterAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import type { Booted } from '../../../core/test/boot/process.ts'
import { type CrashRig, crashRig, stopChild } from '../../../core/test/support/crash-boot.ts'
import { ALICE, directMessage, eventually, FakeDaemon } from './fake/index.ts'

const BURST = 30

describe('the signal channel killed with SIGKILL during a rate-limited burst', () => {
  const daemon = FakeDaemon.start()
  let rig: CrashRig | undefined
  let child: Booted | undefined

  afterAll(async () => {
    if (child) await stopChild(child)
    rig?.remove()
    daemon.close()
  })

  it('sends every accepted reply once, in order, after the next start', async () => {
    rig = crashRig({
      channelFolder: join(import.meta.dir, '..'),
      owner: { channel: 'signal', userId: ALICE.uuid },
      settings: { signal: { account: daemon.account, transport: 'jsonrpc', address: daemon.socketPath } },
    })
    const replies = () =>
      daemon.delivered
        .where((request) => String(request.params.message).startsWith('burst #'))
        .map((request) => String(request.params.message))
    child = rig.start()
    await eventually(() => daemon.clients > 0, 'the bot to connect', 20_000)
    daemon.limitRate({ sends: 5, ms: 1_000, retryAfterSeconds: 1 })
    daemon.push(directMessage({ from: ALICE, text: `/burst ${BURST}` }))
    await child.waitFor('burst accepted')
    // Killed the moment signal-cli refuses a send for the rate limit: nothing is on its way then.
    const refusedAfterSome = daemon.limited.next(
      () => replies().length >= 10,
      'a refusal after ten replies',
      20_000,
    )
    await refusedAfterSome.catch((error: unknown) => {
      throw new Error(
        `${String(error)}; replies ${replies().length}, limited ${daemon.limited.all.length}\n${child?.stdout().slice(-3000)}`,
      )
    })
    child.child.kill('SIGKILL')
    await child.exited()
    const beforeRestart = replies().length
    expect(beforeRestart).toBeLessThan(BURST)
    child = rig.start()
    await eventually(() => replies().length >= BURST, 'every reply after the restart', 30_000)
    await child.waitFor('"outbox: sending what was accepted before the last stop"')
    expect(replies()).toEqual(Array.from({ length: BURST }, (_, index) => `burst #${index}`))
  }, 90_000)
})
