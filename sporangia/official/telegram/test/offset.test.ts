// The polling offset is kept without a database write per update: once for a run of updates, then
// on stop, and a restart still replays nothing, even an update Telegram was never told was read.
import { describe, expect, it } from 'bun:test'
import type { Update } from '@grammyjs/types'
import type { SporeStorage } from '@mycelo/septum'
import { memoryStorage } from '@mycelo/septum/conformance'
import { OFFSET_KEY } from '../src/offset.ts'
import { startFakeTelegram } from './fake/index.ts'
import { connectedRig } from './harness.ts'

/** A storage that notes each value written under the offset key. */
function noting(inner: SporeStorage): { readonly storage: SporeStorage; readonly offsets: unknown[] } {
  const offsets: unknown[] = []
  const storage: SporeStorage = {
    get: (key, schema) => inner.get(key, schema),
    async set(key, value, schema) {
      if (key === OFFSET_KEY) offsets.push(value)
      await inner.set(key, value, schema)
    },
    delete: (key) => inner.delete(key),
    list: (prefix, schema) => inner.list(prefix, schema),
    transaction: (work) => inner.transaction(work),
  }
  return { storage, offsets }
}

describe('the kept polling offset', () => {
  it('is written once for a run of updates and again on stop, and a restart replays none of them where Telegram was never told', async () => {
    const fake = startFakeTelegram()
    const { storage, offsets } = noting(memoryStorage())
    const heard: Update[] = []
    try {
      const first = await connectedRig({ fake, storage, hypha: { keepOffsetEveryMs: 60_000 } })
      try {
        for (const text of ['one', 'two', 'three', 'four', 'five']) {
          const sent = fake.say({ from: fake.world.alice, text })
          const message = await first.emitted.waitFor((m) => m.messageId === String(sent.message_id))
          heard.push(message.raw as Update)
        }
        // The first update was kept at once; the four after it wait for the interval.
        expect(offsets).toEqual([(heard[0]?.update_id ?? 0) + 1])
      } finally {
        await first.stop()
      }
      const next = (heard.at(-1)?.update_id ?? 0) + 1
      expect(offsets).toEqual([(heard[0]?.update_id ?? 0) + 1, next])
      expect(await storage.get(OFFSET_KEY)).toBe(next)
    } finally {
      await fake.stop()
    }

    // A Telegram that still holds every update (its confirming poll never arrived), and one new one.
    const unconfirmed = startFakeTelegram()
    try {
      for (const update of heard) unconfirmed.api.push(update)
      const fresh = unconfirmed.world.message({ from: unconfirmed.world.alice, text: 'new' })
      unconfirmed.api.push({ update_id: (heard.at(-1)?.update_id ?? 0) + 1, message: fresh })
      const second = await connectedRig({ fake: unconfirmed, storage })
      try {
        await second.emitted.waitFor((m) => m.messageId === String(fresh.message_id))
        expect(second.emitted.entries.map((m) => m.text)).toEqual(['new'])
      } finally {
        await second.stop()
      }
    } finally {
      await unconfirmed.stop()
    }
  })

  it('replays nothing from a kept offset older than what Telegram already confirmed', async () => {
    const fake = startFakeTelegram()
    const storage = memoryStorage()
    try {
      const first = await connectedRig({ fake, storage })
      const old = fake.say({ from: fake.world.alice, text: 'old' })
      const update = (await first.emitted.waitFor((m) => m.messageId === String(old.message_id)))
        .raw as Update
      // The poll after it tells Telegram it was read.
      await fake.api.calls.waitFor(
        (call) => call.method === 'getUpdates' && Number(call.params.offset) > update.update_id,
      )
      await first.stop()
      // As after a crash before the interval's write: the copy is behind what Telegram forgot.
      await storage.set(OFFSET_KEY, 1)
      const second = await connectedRig({ fake, storage })
      try {
        const later = fake.say({ from: fake.world.alice, text: 'later' })
        await second.emitted.waitFor((m) => m.messageId === String(later.message_id))
        expect(second.emitted.entries.map((m) => m.text)).toEqual(['later'])
      } finally {
        await second.stop()
      }
    } finally {
      await fake.stop()
    }
  })
})
