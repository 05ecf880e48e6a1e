import { MYCELIUM_SCOPES, type MyceliumScope } from '@mycelo/septum'
import type { SporeFiles } from '../germination/fixtures.ts'
import { type BotOptions, probeEnzyme, probeHypha, probeRhiza, wordInhibitor } from './harness.ts'

/** Every scope this core serves: all sixteen. */
export const SERVED_SCOPES: readonly MyceliumScope[] = MYCELIUM_SCOPES

const FILMS_EN = `command:
  about:
    description: What this plugin is for
  add:
    description: Queue a movie
  react:
    description: React to a message
arg:
  title:
    description: Movie title
  year:
    description: Release year
about:
  text: Films keeps your watch list.
`

const FILMS_FR = `command:
  about:
    description: À quoi sert ce plugin
  add:
    description: Ajouter un film
  react:
    description: Réagir à un message
arg:
  title:
    description: Titre du film
  year:
    description: Année de sortie
about:
  text: Films tient votre liste de films.
`

/** An enzyme with a respond command, a code command with args, and one needing reactions. */
function films(): SporeFiles {
  return probeEnzyme('films', {
    manifest: {
      description: 'Movie shortcuts',
      commands: [
        { name: 'about', description: 'command.about.description', respond: 'about.text' },
        {
          name: 'add',
          description: 'command.add.description',
          code: 'add',
          args: [
            { name: 'title', description: 'arg.title.description', required: true },
            { name: 'year', description: 'arg.year.description', required: false },
          ],
        },
        {
          name: 'react',
          description: 'command.react.description',
          code: 'react',
          capabilities: ['reactions'],
        },
      ],
    },
    handlers: `async add(invocation, ctx) { await ctx.reply({ text: 'queued ' + (invocation.args.title ?? 'nothing') }) },
      async react(_invocation, ctx) { await ctx.reply({ text: 'reacted' }) },`,
    files: { 'translations/en.yaml': FILMS_EN, 'translations/fr.yaml': FILMS_FR },
  })
}

const defined = (shape: string, secrets: readonly string[]) => ({
  preamble: `import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'
const configSchema = defineConfig(${shape}, { secrets: ${JSON.stringify(secrets)} })
`,
  exports: 'configSchema,',
})

/**
 * The garden the mycelium tests grow: channels, rhizas, an inhibitor, enzymes, spores holding
 * scopes, and one spore per way a plugin's configuration can be read, refused or missing.
 */
export function garden(): BotOptions {
  return {
    spores: {
      chat: probeHypha('chat'),
      rich: probeHypha('rich', ['reactions']),
      jammed: probeHypha('jammed', [], { failSend: true }),
      vault: probeRhiza('vault'),
      shaky: probeRhiza('shaky', { failHealth: true }),
      gate: wordInhibitor('gate', '#hush', true),
      films: films(),
      tools: {
        manifest: {
          kind: 'enzyme',
          name: 'tools',
          septum: '^1.0',
          commands: [{ name: 'ping', description: 'command.ping.description', respond: 'pong' }],
        },
      },
      // Its routes are drawn at germination, before its start() fails.
      stumble: {
        manifest: {
          kind: 'enzyme',
          name: 'stumble',
          septum: '^1.0',
          commands: [{ name: 'go', description: 'command.go.description', code: 'go' }],
        },
        files: {
          'src/index.ts': `export default { create: () => ({ async start() { throw new Error('no luck') }, handlers: { go() {} } }) }\n`,
        },
      },
      steward: probeEnzyme('steward', { scopes: SERVED_SCOPES }),
      reader: probeEnzyme('reader', { scopes: ['plugins.read', 'locale.manage', 'sources.manage'] }),
      // Disabled: its module is only read when the mycelium asks for its schema.
      keyed: probeEnzyme(
        'keyed',
        defined("z.strictObject({ apiKey: z.string().min(1), region: z.string().default('eu') })", [
          'apiKey',
        ]),
      ),
      tuned: probeEnzyme(
        'tuned',
        defined("z.object({ token: z.string().optional(), greeting: z.string().default('hi') })", ['token']),
      ),
      roomy: probeEnzyme('roomy', defined('z.looseObject({ colour: z.string().optional() })', [])),
      leaky: probeEnzyme('leaky', defined('z.strictObject({ url: z.string().optional() })', ['token'])),
      handmade: probeEnzyme('handmade', {
        preamble: 'const configSchema = { safeParse: (input) => ({ success: true, data: input ?? {} }) }\n',
        exports: 'configSchema,',
      }),
      broken: {
        manifest: {
          kind: 'enzyme',
          name: 'broken',
          septum: '^1.0',
          commands: [{ name: 'go', description: 'command.go.description', code: 'go' }],
        },
        files: { 'src/index.ts': "throw new Error('broken at import')\n" },
      },
      ancient: probeEnzyme('ancient', { manifest: { septum: '^0.5' } }),
      mangled: { manifest: { kind: 'enzyme', name: 'mangled', septum: '^1.0', commands: [] } },
      oddity: { manifest: { kind: 'enzym', name: 'oddity', septum: '^1.0' } },
    },
    disabled: ['keyed', 'leaky', 'ancient', 'mangled'],
  }
}
