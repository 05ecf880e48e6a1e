import type { Files, Scaffolding } from './common.ts'

/** An enzyme with a code command (an arg, a setting, storage) and a respond: one. */
export function enzymeFiles({ name, typeName }: Scaffolding): Files {
  return {
    'spore.yaml': `kind: enzyme
name: ${name}
septum: "^1.1"
description: Says hello, and counts how often
commands:
  - name: hello
    description: command.hello.description
    code: hello
    args:
      - name: who
        description: arg.who.description
  - name: about
    description: command.about.description
    respond: about.text
`,
    'translations/en.yaml': `command:
  hello:
    description: Greet someone by name
  about:
    description: What this spore does
arg:
  who:
    description: Who to greet
hello: "{greeting}, {who}! {count, plural, one {That is the first hello.} other {That makes # hellos.}}"
about:
  text: "${name} greets people: try /hello Ada."
settings:
  greeting:
    label: Greeting
    help: The word each hello starts with
`,
    'translations/fr.yaml': `command:
  hello:
    description: Saluer quelqu’un par son nom
  about:
    description: Ce que fait ce spore
arg:
  who:
    description: Qui saluer
hello: "{greeting}, {who} ! {count, plural, one {C’est le premier bonjour.} other {Cela fait # bonjours.}}"
about:
  text: "${name} salue les gens : essayez /hello Ada."
settings:
  greeting:
    label: Salutation
    help: Le mot par lequel commence chaque bonjour
`,
    'src/index.ts': `import { defineConfig, type EnzymeModule } from '@mycelo/septum'
import { z } from 'zod'

/** The settings an operator edits; \`.describe()\` names a catalogue key whose label and help the forms show. */
const settings = z.object({
  greeting: z.string().min(1).default('Hello').describe('settings.greeting'),
})

export type ${typeName}Config = z.output<typeof settings>

export default {
  configSchema: defineConfig(settings),
  create: () => ({
    handlers: {
      async hello(invocation, ctx) {
        const who = invocation.args.who ?? ctx.principal.displayName ?? 'world'
        // septum 1.1: ctx.storage keeps the count across restarts, in the bot's database.
        const count = ((await ctx.storage.get<number>('hellos')) ?? 0) + 1
        await ctx.storage.set('hellos', count)
        await ctx.reply({ text: ctx.t('hello', { greeting: ctx.config.greeting, who, count }) })
      },
    },
  }),
} satisfies EnzymeModule<${typeName}Config>
`,
    [`test/${name}.test.ts`]: `// Runs under \`bun test\` and, compiled by tsc, under \`node --test\`: node:test and node:assert only.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { enzymeChecks } from '@mycelo/septum/conformance'
import { readSporeFiles, sporeFolder, type TestBot, testBot } from '@mycelo/septum/testing'
import module from '../src/index.js'

const files = readSporeFiles(sporeFolder(import.meta.url))
let bot: TestBot
before(async () => {
  bot = await testBot({ spore: { from: import.meta.url, module, settings: { greeting: 'Hi' } } })
})
after(() => bot.stop())

describe('${name}', () => {
  it('conforms to the Enzyme contract, catalogues included', async () => {
    // A bot of its own: the kit's calls count hellos in its storage, not in the one the next test reads.
    const kitBot = await testBot({ spore: { from: import.meta.url, module } })
    const failures = await enzymeChecks({
      name: '${name}',
      manifest: files.manifest,
      module,
      catalogs: files.catalogs,
      config: {},
      invalidConfig: { greeting: '' },
      context: () => kitBot.context(),
    })
    await kitBot.stop()
    assert.deepEqual(failures, [])
  })

  it('greets, counts, and speaks the reader’s language', async () => {
    assert.deepEqual(await bot.say('/hello Ada'), ['Hi, Ada! That is the first hello.'])
    assert.deepEqual(await bot.say('/hello Ada', { locale: 'fr' }), ['Hi, Ada ! Cela fait 2 bonjours.'])
    assert.deepEqual(await bot.say('/about'), ['${name} greets people: try /hello Ada.'])
  })
})
`,
  }
}
