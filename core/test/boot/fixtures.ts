import { writeSpore } from './process.ts'

/** An enzyme that needs no module: its only command answers with a catalogue key. */
export function respondEnzyme(folder: string, name: string): string {
  return writeSpore(folder, name, {
    'spore.yaml': `kind: enzyme\nname: ${name}\nseptum: "^1.0"\ncommands:\n  - name: ping\n    description: ping.description\n    respond: pong\n`,
  })
}

/**
 * A hypha that notes each lifecycle call in journal.txt beside its spore.yaml, logs its secret
 * token at start-up, and, when its `hang` setting is on, never finishes stopping.
 */
export function probeHypha(folder: string, name = 'probe'): string {
  return writeSpore(folder, name, {
    'spore.yaml': `kind: hypha\nname: ${name}\nseptum: "^1.0"\ncapabilities: []\n`,
    'src/index.ts': `
import { appendFileSync } from 'node:fs'
import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'

const journal = new URL('../journal.txt', import.meta.url)
const note = (line: string) => appendFileSync(journal, line + '\\n')

export default {
  configSchema: defineConfig(
    z.strictObject({ greeting: z.string().default('hello'), token: z.string().optional(), hang: z.boolean().default(false) }),
    { secrets: ['token'] },
  ),
  create() {
    let hang = false
    return {
      async connect(ctx: any) {
        hang = ctx.config.hang
        note('connect ' + ctx.config.greeting)
        if (ctx.config.token) ctx.logger.info('connecting with token ' + ctx.config.token, { token: ctx.config.token })
      },
      async listen() { note('listen') },
      async stop() {
        note('stop')
        if (hang) await new Promise(() => {})
      },
      async send() {},
    }
  },
}
`,
  })
}

/** A hypha whose settings cannot validate until an operator gives it a token. */
export function needyHypha(folder: string, name = 'needy'): string {
  return writeSpore(folder, name, {
    'spore.yaml': `kind: hypha\nname: ${name}\nseptum: "^1.0"\ncapabilities: []\n`,
    'src/index.ts': `
import { appendFileSync } from 'node:fs'
import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'

export default {
  configSchema: defineConfig(z.strictObject({ token: z.string().min(3) })),
  create: () => ({
    async connect(ctx: any) { appendFileSync(new URL('../journal.txt', import.meta.url), 'connect ' + ctx.config.token.length + '\\n') },
    async listen() {},
    async stop() {},
    async send() {},
  }),
}
`,
  })
}

/** A rhiza requiring another, optionally: enough to close a cycle without a mandatory edge. */
export function optionalRhiza(folder: string, name: string, requires: string): string {
  return writeSpore(folder, name, {
    'spore.yaml': `kind: rhiza\nname: ${name}\nseptum: "^1.0"\nrequires:\n  - rhiza: ${requires}\n    optional: true\n`,
    'src/index.ts': `export default { create: () => ({ api: {}, async start() {}, async stop() {}, async health() { return { state: 'healthy', checkedAt: new Date() } } }) }\n`,
  })
}
