// What every kind's scaffold shares: the package, the compiler settings, and a README.
import type { PluginKind } from '@mycelo/septum'

export interface Scaffolding {
  readonly kind: PluginKind
  /** The spore's name: lowercase letters, digits and dashes. */
  readonly name: string
  /** The name as a TypeScript type name: `weather-now` → `WeatherNow`. */
  readonly typeName: string
}

/** Files by path relative to the spore's folder. */
export type Files = Readonly<Record<string, string>>

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`

export function packageFiles(s: Scaffolding, septumVersion: string): Files {
  const [major, minor] = septumVersion.split('.')
  return {
    'package.json': json({
      name: s.name,
      version: '0.1.0',
      private: true,
      type: 'module',
      scripts: {
        test: 'bun test ./test/',
        'test:node': 'tsc -p tsconfig.json && node --test build/test/',
        typecheck: 'tsc -p tsconfig.json --noEmit',
      },
      dependencies: { '@mycelo/septum': `^${major}.${minor}.0`, zod: '^4.1.0' },
      devDependencies: { '@types/node': '^20.0.0', typescript: '^5.9.0' },
    }),
    'tsconfig.json': json({
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2022'],
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        types: ['node'],
        strict: true,
        verbatimModuleSyntax: true,
        skipLibCheck: true,
        rootDir: '.',
        outDir: 'build',
      },
      include: ['src', 'test'],
    }),
    '.gitignore': 'node_modules/\nbuild/\n',
  }
}

const WHAT: Readonly<Record<PluginKind, string>> = {
  hypha: 'a channel: it hears messages on 127.0.0.1 over HTTP and hands them to the bot',
  rhiza: 'a connected system: it reaches an HTTP service and offers its api to other spores',
  enzyme: 'commands: it answers `/hello` and `/about` in the reader’s language',
  inhibitor: 'a filter: it refuses the senders its settings name',
}

export function readme(s: Scaffolding): Files {
  return {
    'README.md': `# ${s.name}

A Mycelo ${s.kind} — ${WHAT[s.kind]}.

- \`spore.yaml\` — the manifest the bot reads before any code runs.
- \`src/index.ts\` — the module: settings schema (each field labelled with \`.describe()\`) and \`create()\`.
- \`translations/en.yaml\`, \`translations/fr.yaml\` — every word a person reads (ICU MessageFormat).
- \`test/${s.name}.test.ts\` — the conformance kit and the test bot (\`@mycelo/septum/testing\`).

## Work on it

\`\`\`sh
npm install                      # or: bun install
bun test ./test/                 # the tests on Bun
npm run test:node                # compiled by tsc, the same tests on Node 20+
bun run mycelo dev <this folder> # from a Mycelo checkout: the bot on the console, reloaded on save
\`\`\`

## Install it

Pack it into a sporangium (\`bun run sporangium\` in a Mycelo checkout), or put the folder where the bot
discovers spores (\`spores:\` in \`mycelo.yaml\`) and enable it.
`,
  }
}

/** `weather-now` → `WeatherNow`. */
export function typeNameOf(name: string): string {
  return name
    .split('-')
    .map((part) => (part === '' ? '' : part[0]!.toUpperCase() + part.slice(1)))
    .join('')
    .replace(/^(\d)/, 'S$1')
}
