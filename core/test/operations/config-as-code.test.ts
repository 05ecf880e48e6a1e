// The bot's configuration as a YAML file, through the real companion over a real database:
// export, edit, a dry run that shows the diff and changes nothing, --apply that changes it, and
// imports that are refused (a line a mycelium function refuses, a file that does not validate,
// a bot holding the database) leave every value as it was.
import { afterAll, beforeEach, describe, expect, it } from 'bun:test'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { auditLog } from '../../audit/log.ts'
import { RestrictionBook } from '../../rhizomorph/restrictions.ts'
import { insertSource, sourceRow } from '../../sporangium/source-rows.ts'
import { createPluginStore, principalIdOf, roleNamesOf } from '../../store/index.ts'
import { runCli, startBoot } from '../boot/process.ts'
import { scratchFolder } from '../store/scratch.ts'
import { type BotFolder, botFolder, heldData, seedBot, withStore } from './bot.ts'

const scratch = scratchFolder('ops-config')
afterAll(() => scratch.remove())

let bot: BotFolder
let count = 0
beforeEach(() => {
  bot = botFolder(scratch.path, `bot-${++count}`)
  seedBot(bot)
  withStore(bot.database, (store) =>
    createPluginStore(store).setSetting('console', 'prompt', 'hunter2', { secret: true }),
  )
})

function state() {
  return withStore(bot.database, (store) => {
    const friend = principalIdOf(store, { channel: 'chat', externalId: 'friend' })!
    const plugins = createPluginStore(store)
    return { settings: plugins.settingsOf('console'), friend: roleNamesOf(store, friend) }
  })
}

async function exported(): Promise<string> {
  const file = join(bot.folder, 'bot.yaml')
  const answer = await runCli(['export', file], bot.config)
  expect(answer.code).toBe(0)
  return readFileSync(file, 'utf8')
}

function edited(text: string, name: string): string {
  const file = join(bot.folder, name)
  writeFileSync(file, text)
  return file
}

describe('configuration as code', () => {
  it('exports the operator’s state as commented YAML, secrets masked unless asked', async () => {
    const text = await exported()
    expect(text).toStartWith('# The configuration of a Mycelo bot, as `bun run mycelo export` wrote it.\n')
    expect(text).toContain('    settings:\n      interactive: always\n      prompt: ••••\n')
    expect(text).toContain('  moviegoer:\n    - greeter.*\n    - help.*\n')
    expect(text).toContain('grants:\n  moviegoer:\n    - chat:friend\n')
    expect(text).not.toContain('hunter2')
    const secrets = await runCli(['export', '--secrets'], bot.config)
    expect(secrets.stdout).toContain('      prompt: hunter2\n')
    // Stable: the same state exports the same bytes.
    expect(await exported()).toBe(text)
  })

  it('shows the diff on a dry run and changes nothing; --apply changes it; the mask keeps a secret', async () => {
    const text = await exported()
    const file = edited(
      text
        .replace('interactive: always', 'interactive: never')
        .replace('grants:\n', 'grants:\n  member:\n    - chat:friend\n'),
      'edited.yaml',
    )
    const before = state()
    const dry = await runCli(['import', file], bot.config)
    expect(dry.stderr).toBe('')
    expect(dry.code).toBe(0)
    expect(dry.stdout).toBe(
      '2 changes (dry run, nothing was changed; run again with --apply to make them):\n' +
        '~ plugins.console.settings.interactive: "always" → "never"\n' +
        '+ grants.member: chat:friend\n',
    )
    expect(state()).toEqual(before)
    const applied = await runCli(['import', file, '--apply'], bot.config)
    expect(applied.stderr).toBe('')
    expect(applied.code).toBe(0)
    expect(applied.stdout).toStartWith('2 changes made.\n')
    const after = state()
    expect(after.settings).toEqual({ interactive: 'never', prompt: 'hunter2' })
    expect(after.friend.sort()).toEqual(['member', 'moviegoer'])
    expect((await runCli(['import', file], bot.config)).stdout).toBe(
      'The file matches the bot: nothing would change.\n',
    )
  })

  it('changes nothing at all when one line is refused, naming it and its line', async () => {
    const text = await exported()
    const file = edited(
      `${text.replace('interactive: always', 'interactive: never').replace('\nroles:\n', '\n  nosuch:\n    enabled: true\nroles:\n')}`,
      'refused.yaml',
    )
    const before = state()
    // The setting comes first in the file and is made before the refusal: it must be undone too.
    expect((await runCli(['import', file], bot.config)).stderr).toContain('plugins.nosuch.enabled')
    const answer = await runCli(['import', file, '--apply'], bot.config)
    expect(answer.code).toBe(1)
    expect(answer.stderr).toBe(
      'Nothing was changed: + plugins.nosuch.enabled: true (line 19) is refused: No spore named "nosuch" is installed.\n',
    )
    expect(state()).toEqual(before)
  })

  it('carries rules, broadcast targets and sources: a rule left out is cleared, a masked token kept', async () => {
    withStore(bot.database, (store) => {
      const book = new RestrictionBook(store)
      book.setContextRule('greeter.greet', ['dm'])
      book.addTarget({ channel: 'console', conversationId: 'main' })
      insertSource(store, {
        id: 'mirror',
        label: 'Mirror',
        url: 'https://mirror.example.org/index.json',
        token: 'sekret',
        publisherKey: null,
        trust: 'third-party',
        enabled: true,
      })
    })
    const text = await exported()
    expect(text).toContain('rules:\n  greeter.greet:\n    - dm\n')
    expect(text).toContain('broadcast:\n  - channel: console\n    conversation: main\n')
    expect(text).toContain(
      '  mirror:\n    label: Mirror\n    url: https://mirror.example.org/index.json\n    enabled: true\n    token: ••••\n',
    )
    expect(text).not.toContain('sekret')
    const file = edited(
      text
        .replace('rules:\n  greeter.greet:\n    - dm\n', 'rules: {}\n')
        .replace('label: Mirror', 'label: My mirror'),
      'rules.yaml',
    )
    const applied = await runCli(['import', file, '--apply'], bot.config)
    expect(applied.stderr).toBe('')
    expect(applied.stdout).toBe(
      '2 changes made.\n- rules.greeter.greet\n~ sources.mirror: label "Mirror" → "My mirror"\n',
    )
    withStore(bot.database, (store) => {
      expect(new RestrictionBook(store).contextRules()).toEqual([])
      expect(new RestrictionBook(store).targets()).toEqual([{ channel: 'console', conversationId: 'main' }])
      expect(sourceRow(store, 'mirror')).toMatchObject({ label: 'My mirror', token: 'sekret' })
      // Every line went through the audited mycelium function, the source's as much as the rule's.
      const methods = auditLog(store)
        .list()
        .map((entry) => [entry.method, entry.actorKind, entry.outcome])
      expect(methods).toContainEqual(['restrictions.manage.clearContextRule', 'operator', 'ok'])
      expect(methods).toContainEqual(['sources.manage.updateSource', 'operator', 'ok'])
    })
  })

  it("carries spores' stored data only when asked, each listed spore's entries the whole list, within its quota", async () => {
    expect(await exported()).not.toContain('data:')
    const answer = await runCli(['export', '--data'], bot.config)
    expect(answer.code).toBe(0)
    expect(answer.stdout).toEndWith('data:\n  greeter:\n    greeted: 3\n    last:\n      who: friend\n')
    const file = edited(
      answer.stdout.replace(
        '    greeted: 3\n    last:\n      who: friend\n',
        '    greeted: 4\n    fresh: [1, 2]\n',
      ),
      'data.yaml',
    )
    const dry = await runCli(['import', file], bot.config)
    expect(dry.stdout).toBe(
      '3 changes (dry run, nothing was changed; run again with --apply to make them):\n' +
        '~ data.greeter.greeted: 3 → 4\n+ data.greeter.fresh: [1,2]\n- data.greeter.last\n',
    )
    expect((await runCli(['import', file, '--apply'], bot.config)).stdout).toStartWith('3 changes made.\n')
    expect(withStore(bot.database, heldData).entries).toEqual([
      ['fresh', '[1,2]'],
      ['greeted', '4'],
    ])
    // Past the greeter's quota, the import is refused whole.
    writeFileSync(bot.config, `${readFileSync(bot.config, 'utf8')}storage:\n  spores:\n    greeter: 40\n`)
    const big = edited(
      answer.stdout.replace('    greeted: 3\n', `    greeted: 5\n    big: ${'x'.repeat(60)}\n`),
      'big.yaml',
    )
    const refused = await runCli(['import', big, '--apply'], bot.config)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toStartWith(`Nothing was changed: + data.greeter.big: "${'x'.repeat(58)}…`)
    expect(refused.stderr).toContain(
      'is refused: The stored data of "greeter" cannot be written: spore "greeter", storage key "big": writing it would use',
    )
    expect(withStore(bot.database, heldData).entries).toEqual([
      ['fresh', '[1,2]'],
      ['greeted', '4'],
    ])
  })

  it('refuses a file that does not validate, naming the path and line', async () => {
    const file = edited('roles:\n  friends: everything\n', 'invalid.yaml')
    const answer = await runCli(['import', file], bot.config)
    expect(answer.code).toBe(1)
    expect(answer.stderr).toBe(
      'The configuration file is refused at roles.friends (line 2): Invalid input: expected array, received string. Nothing was changed.\n',
    )
  })

  it('refuses --apply while a bot holds the database, and dry-runs beside it', async () => {
    const file = edited(
      (await exported()).replace('interactive: always', 'interactive: never'),
      'beside.yaml',
    )
    const boot = startBoot(bot.config)
    try {
      await boot.waitFor('Mycelo is running')
      const dry = await runCli(['import', file], bot.config)
      expect(dry.code).toBe(0)
      const applied = await runCli(['import', file, '--apply'], bot.config)
      expect(applied.code).toBe(1)
      expect(applied.stderr).toStartWith('Nothing was changed: another Mycelo is already using the database')
    } finally {
      boot.child.kill('SIGTERM')
      await boot.exited()
    }
    expect(state().settings.interactive).toBe('always')
  })
})
