import type { Files, Scaffolding } from './common.ts'

/** An advisory inhibitor refusing the senders its settings name. */
export function inhibitorFiles({ name, typeName }: Scaffolding): Files {
  return {
    'spore.yaml': `kind: inhibitor
name: ${name}
septum: "^1.1"
description: Refuses the senders its settings name
enforcing: false
`,
    'translations/en.yaml': `refused: "{sender} on {channel} is on the blocked list"
settings:
  blocked:
    label: Blocked senders
    help: Each as channel:id, such as signal:+33600000000
`,
    'translations/fr.yaml': `refused: "{sender} sur {channel} est sur la liste des bloqués"
settings:
  blocked:
    label: Expéditeurs bloqués
    help: Chacun sous la forme canal:identifiant, par exemple signal:+33600000000
`,
    'src/index.ts': `import { defineConfig, type InhibitorModule } from '@mycelo/septum'
import { z } from 'zod'

const settings = z.object({
  blocked: z
    .array(z.string().regex(/^[a-z0-9-]+:.+$/))
    .default([])
    .describe('settings.blocked'),
})

export type ${typeName}Config = z.output<typeof settings>

export default {
  configSchema: defineConfig(settings),
  create: () => ({
    inspect(message, ctx) {
      const sender = message.sender.externalId
      if (!ctx.config.blocked.includes(\`\${message.channel}:\${sender}\`)) return { allow: true }
      // The reason is for the operator, in the bot's default language; the sender hears nothing.
      return { allow: false, reason: ctx.t('refused', { sender, channel: message.channel }) }
    },
  }),
} satisfies InhibitorModule<${typeName}Config>
`,
    [`test/${name}.test.ts`]: `// Runs under \`bun test\` and, compiled by tsc, under \`node --test\`: node:test and node:assert only.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { inhibitorChecks } from '@mycelo/septum/conformance'
import { readSporeFiles, sporeFolder, type TestBot, testBot } from '@mycelo/septum/testing'
import module from '../src/index.js'

const files = readSporeFiles(sporeFolder(import.meta.url))
const settings = { blocked: ['console:mallory'] }
let bot: TestBot
before(async () => {
  bot = await testBot({ spore: { from: import.meta.url, module, settings } })
})
after(() => bot.stop())

describe('${name}', () => {
  it('conforms to the Inhibitor contract', async () => {
    const failures = await inhibitorChecks({
      name: '${name}',
      manifest: files.manifest,
      module,
      config: settings,
      invalidConfig: { blocked: ['no channel'] },
      context: () => bot.inhibitorContext(),
      expectations: [
        { label: 'anyone', message: { channel: 'console', sender: { channel: 'console', externalId: 'alice' } }, allow: true },
        { label: 'a blocked sender', message: { channel: 'console', sender: { channel: 'console', externalId: 'mallory' } }, allow: false },
      ],
    })
    assert.deepEqual(failures, [])
  })

  it('refuses a blocked sender, saying why to the operator', async () => {
    assert.deepEqual(await bot.inspect('hello', { person: 'alice' }), { allow: true })
    assert.deepEqual(await bot.inspect('hello', { person: 'mallory' }), {
      allow: false,
      reason: 'mallory on console is on the blocked list',
    })
  })

  it('speaks the bot’s default language', async () => {
    const french = await testBot({ spore: { from: import.meta.url, module, settings }, defaultLocale: 'fr' })
    assert.deepEqual(await french.inspect('bonjour', { person: 'mallory' }), {
      allow: false,
      reason: 'mallory sur console est sur la liste des bloqués',
    })
    await french.stop()
  })
})
`,
  }
}
