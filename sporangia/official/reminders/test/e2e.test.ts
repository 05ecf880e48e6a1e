// reminders inside the real core: the core's own scheduler fires them on its real timer, the
// entries and schedules live in the bot's SQLite file, and a reminder due while the bot was down
// is said late once it is back (re-attached at start by handle()).
import { afterAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { scratchFolder } from '../../../../core/test/store/scratch.ts'
import { realSpore } from '../../../../core/test/support/real-spores.ts'
import { startTestCore, type TestCore } from '../../../../core/test/support/runtime.ts'

const SPORES = { reminders: realSpore(join(import.meta.dir, '..')), admin: realSpore('admin') }

const folder = scratchFolder('reminders')
let core: TestCore | undefined
afterAll(async () => {
  await core?.stop()
  folder.remove()
})

const start = () => startTestCore({ spores: SPORES, folder: folder.path })

/** Waits until the test channel was sent a text that passes `test`; never a measure of time. */
async function sentMatching(test: (text: string) => boolean, within = 15_000) {
  const deadline = Date.now() + within
  for (;;) {
    const found = core!.sent.find((sent) => test(sent.content.text ?? ''))
    if (found !== undefined) return found
    if (Date.now() > deadline) throw new Error('nothing matching was sent')
    await Bun.sleep(25)
  }
}

describe('reminders in the real core', () => {
  it('says a reminder when it falls due, in the conversation it was asked in', async () => {
    core = await start()
    const [answer] = await core.ask('/remind in 1s stretch', { conversationId: 'kitchen' })
    expect(answer).toStartWith('I will remind you on ')
    const said = await sentMatching((text) => text === '⏰ stretch')
    expect(said.conversationId).toBe('kitchen')
    expect(await core.ask('/reminders')).toEqual(['You have no reminders.'])
  })

  it('keeps reminders across a restart and says a missed one late, in the language it was asked in', async () => {
    await core!.ask('/lang fr')
    await core!.ask('/timezone Europe/Paris')
    expect((await core!.ask('/remind à 8:00 chaque lundi réunion'))[0]).toBe(
      'Je vous le rappellerai chaque lundi à 08:00 (Europe/Paris) : réunion',
    )
    await core!.ask('/remind dans 1s thé')
    await core!.stop()
    // Down past the one-shot's time: it is due while nobody can say it.
    await Bun.sleep(1500)
    core = await start()
    const late = await sentMatching((text) => text.startsWith('⏰ thé'))
    expect(late.content.text).toMatch(/^⏰ thé \(prévu le .+, pendant mon absence\)$/)
    const listed = await core.ask('/reminders')
    expect(listed[0]).toMatch(/^Votre rappel :\n1\. .+ — réunion \(chaque lundi\)$/)
    expect(await core.ask('/timezone')).toEqual(['Vos rappels utilisent Europe/Paris.'])
  })
})
