// A configuration import is bounded (size, entries — aliases counted as written out —, nesting,
// aliases) and refused at once past a bound, naming the path and the line; a name an object's
// prototype answers to is refused or looked up as a name, never ending in a stack trace.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { closeSync, ftruncateSync, openSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { IMPORT_BOUNDS } from '../../operations/config-as-code/bounds.ts'
import { importConfiguration } from '../../operations/config-as-code/import.ts'
import { respondEnzyme } from '../boot/fixtures.ts'
import { runCli } from '../boot/process.ts'
import { type Bot, probeHypha, startBot } from '../mycelium/harness.ts'
import { scratchFolder } from '../store/scratch.ts'

let bot: Bot
beforeAll(async () => {
  bot = await startBot({ spores: { chat: probeHypha('chat') }, disabled: [] })
})
afterAll(() => bot.stop())

/** The import's refusal in English, or undefined when it went through. */
async function refusalOf(text: string): Promise<string | undefined> {
  const done = await importConfiguration(bot.runtime, text)
  return done.ok ? undefined : bot.runtime.translator.render(done.refusal, 'en')
}

describe('an import past a bound', () => {
  it('refuses aliases that multiply (billion laughs) where they pass the entries, naming the place', async () => {
    const levels = ['a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]']
    for (let level = 1; level < 9; level++) {
      const name = String.fromCharCode(97 + level)
      const previous = String.fromCharCode(96 + level)
      levels.push(`${name}: &${name} [${Array(10).fill(`*${previous}`).join(', ')}]`)
    }
    const text = `roles:\n  laughs: [admin.help]\nrules:\n${levels.map((line) => `  ${line}`).join('\n')}\n`
    const refusal = await refusalOf(text)
    expect(refusal).toMatch(
      /^The configuration file is refused at rules\.[a-i]\[\d+\] \(line \d+\): the file holds more than 20,000 entries in all\. Nothing was changed\.$/,
    )
  })

  it('refuses more aliases than allowed, even when each stands for little', async () => {
    const aliases = Array.from({ length: IMPORT_BOUNDS.aliases + 1 }, () => '*p').join(', ')
    const refusal = await refusalOf(`roles:\n  r: &p [admin.help]\nbroadcast: [${aliases}]\n`)
    expect(refusal).toStartWith(
      'The configuration file is refused at broadcast[100] (line 3): the file uses more than 100 aliases.',
    )
  })

  it('refuses more entries than allowed at the entry that passes the bound, list items counted', async () => {
    // `roles` is one entry, each role two more: its name, and the one pattern in its list.
    const lines = Array.from(
      { length: IMPORT_BOUNDS.entries / 2 + 5 },
      (_, index) => `  r${index}: [admin.help]`,
    )
    const refusal = await refusalOf(`roles:\n${lines.join('\n')}\n`)
    const last = IMPORT_BOUNDS.entries / 2 - 1
    expect(refusal).toBe(
      `The configuration file is refused at roles.r${last} (line ${last + 2}): the file holds more than 20,000 entries in all. Nothing was changed.`,
    )
  })

  it('refuses a key given twice in one mapping, naming the second', async () => {
    expect(await refusalOf('roles:\n  a: [admin.help]\n  b: []\n  a: [admin.roles]\n')).toBe(
      'The configuration file is refused at roles.a (line 4): this key is already given above in the same mapping. Nothing was changed.',
    )
  })

  it('refuses nesting deeper than allowed, naming where it passes the bound', async () => {
    const deep = `${'['.repeat(IMPORT_BOUNDS.depth + 8)}1${']'.repeat(IMPORT_BOUNDS.depth + 8)}`
    const refusal = await refusalOf(
      `plugins:\n  chat:\n    enabled: true\n    settings:\n      deep: ${deep}\n`,
    )
    expect(refusal).toMatch(
      /^The configuration file is refused at plugins\.chat\.settings\.deep(\[0\])+ \(line 5\): mappings and lists are nested more than 32 deep here\./,
    )
  })

  it('refuses a file over the size bound before parsing it, in words', async () => {
    const refusal = await refusalOf(`# ${'x'.repeat(IMPORT_BOUNDS.bytes)}\n`)
    expect(refusal).toBe(
      `The configuration file is ${(IMPORT_BOUNDS.bytes + 3).toLocaleString('en')} bytes; an import reads at most ${IMPORT_BOUNDS.bytes.toLocaleString('en')}. Nothing was changed.`,
    )
  })
})

describe('names an object’s prototype answers to', () => {
  it('refuses __proto__, constructor and prototype as keys, with path and line, and no stack trace', async () => {
    for (const [text, path] of [
      ['roles:\n  __proto__: [admin.help]\n', 'roles.__proto__ (line 2)'],
      ['grants:\n  constructor: ["chat:boss"]\n', 'grants.constructor (line 2)'],
      [
        'plugins:\n  chat:\n    enabled: true\n    settings:\n      x: { prototype: 1 }\n',
        'plugins.chat.settings.x.prototype (line 5)',
      ],
    ] as const) {
      expect(await refusalOf(text)).toBe(
        `The configuration file is refused at ${path}: this name is one no entry may have (__proto__, constructor and prototype are reserved). Nothing was changed.`,
      )
    }
  })

  it('looks toString and its siblings up as plain names: refused by the role rules, not a crash', async () => {
    expect(await refusalOf('roles:\n  toString: [admin.help]\n')).toBe(
      'Nothing was changed: + roles.toString: ["admin.help"] (line 2) is refused: A role name is made of lowercase letters, digits and dashes; "toString" is not.',
    )
    expect(
      await refusalOf('grants:\n  valueOf: ["chat:boss"]\nrules:\n  hasOwnProperty: [dm]\n'),
    ).toBeString()
  })
})

describe('the companion', () => {
  const scratch = scratchFolder('import-bounds')
  afterAll(() => scratch.remove())

  it('refuses a 40 MB file by its size, without reading it', async () => {
    const spores = join(scratch.path, 'spores')
    respondEnzyme(spores, 'echo')
    const config = join(scratch.path, 'mycelo.yaml')
    writeFileSync(
      config,
      'spores: [spores]\ndatabase: data/mycelo.db\nowner: { channel: chat, userId: boss }\n',
    )
    const huge = join(scratch.path, 'huge.yaml')
    const handle = openSync(huge, 'w')
    ftruncateSync(handle, 40 * 1024 * 1024)
    closeSync(handle)
    const done = await runCli(['import', huge], config)
    expect(done.code).toBe(1)
    expect(done.stdout + done.stderr).toContain(
      'The configuration file is 41,943,040 bytes; an import reads at most 2,097,152.',
    )
    expect(done.stderr).not.toContain('    at ')
  })
})
