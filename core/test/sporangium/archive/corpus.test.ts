// Every archive of the hostile corpus is refused with its own reason, and leaves the bot's tree
// (shipped spores, installs, staging, the kept strains) and its install rows exactly as they were;
// the only paths ever written are under staging.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join, relative } from 'node:path'
import { CORE_TRANSLATIONS, loadDomain } from '../../../boot/catalogues.ts'
import { installStrain } from '../../../sporangium/installation.ts'
import { installRecords } from '../../../store/install-rows.ts'
import { archiveOf, type Ground, makeGround, recordingFiles } from '../install/ground.ts'
import { CORPUS_LIMITS, HOSTILE } from './hostile.ts'

let ground: Ground
beforeAll(() => {
  ground = makeGround({ limits: CORPUS_LIMITS })
})
afterAll(() => ground.remove())

const common = loadDomain(join(CORE_TRANSLATIONS, 'common'))

test('the corpus holds at least fifty hostile archives, each with a refusal worded in en and fr', () => {
  expect(HOSTILE.length).toBeGreaterThanOrEqual(50)
  expect(new Set(HOSTILE.map((archive) => archive.name)).size).toBe(HOSTILE.length)
  for (const archive of HOSTILE) {
    for (const locale of ['en', 'fr'])
      expect(common.get(locale)?.messages.has(`refusal.${archive.refusal}`)).toBe(true)
  }
})

describe('a hostile archive', () => {
  for (const hostile of HOSTILE) {
    test(`is refused: ${hostile.name}`, async () => {
      const before = ground.snapshot()
      const rows = installRecords(ground.store)
      const files = recordingFiles()
      const spore = hostile.spore ?? 'probe'
      const outcome = await installStrain(ground.deps(files), archiveOf(spore, hostile.bytes()))

      expect(outcome.ok).toBe(false)
      if (outcome.ok) return
      expect(outcome.refusal.key).toBe(`refusal.${hostile.refusal}`)
      // The refusal renders whole in both languages: every parameter it names is given.
      for (const locale of ['en', 'fr']) {
        const message = common.get(locale)!.messages.get(outcome.refusal.key)!
        expect(String(message.format(outcome.refusal.params as Record<string, string>))).toContain(
          spore.slice(0, 8),
        )
      }
      expect(ground.snapshot()).toEqual(before)
      expect(installRecords(ground.store)).toEqual(rows)
      for (const path of files.written) expect(relative(ground.staging, path).startsWith('..')).toBe(false)
    })
  }
})
