// Spores for the in-process lifecycle tests. Each records what happens to it on globalThis.live,
// so a test can read the order spores started and stopped in, and which instance served a message.

/** `globalThis.live`: the events of every spore, oldest first. */
export interface LiveLog {
  events: string[]
  /** Whether the gate inhibitor is started right now (set by start(), cleared by stop()). */
  gateUp: boolean
  /** Messages the gate was asked to judge while it was not started: must stay zero. */
  judgedWhileDown: number
}

export function liveLog(): LiveLog {
  const scope = globalThis as unknown as { live?: LiveLog }
  scope.live ??= { events: [], gateUp: false, judgedWhileDown: 0 }
  return scope.live
}

/** A rhiza that other spores need. */
export const VAULT = {
  'spore.yaml': 'kind: rhiza\nname: vault\nseptum: "^1.0"\n',
  'src/index.ts': `const log = () => globalThis.live
export default { create: () => ({
  api: { balance: () => 42 },
  async start() { log().events.push('vault start') },
  async stop() { log().events.push('vault stop') },
  async health() { return { state: 'healthy', checkedAt: new Date() } },
}) }
`,
}

/** An enzyme that cannot run without vault. */
export const TELLER = {
  'spore.yaml': `kind: enzyme
name: teller
septum: "^1.0"
requires:
  - rhiza: vault
commands:
  - name: balance
    description: balance.description
    code: balance
`,
  'src/index.ts': `const log = () => globalThis.live
export default { create: () => ({
  async start() { log().events.push('teller start') },
  async stop() { log().events.push('teller stop') },
  handlers: {
    async balance(invocation, ctx) {
      await ctx.reply({ text: 'balance ' + ctx.rhiza('vault').balance() })
    },
  },
}) }
`,
  'translations/en.yaml': 'balance:\n  description: Shows the balance\n',
}

/** The greeter's module, by version: each greets with its settings' word and its own mark. */
export function greeterModule(version: string): string {
  return `import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'
const log = () => globalThis.live
export default {
  configSchema: defineConfig(z.object({ word: z.string().optional() })),
  create: () => {
    let config = {}
    return {
      async start(ctx) { config = ctx.config; log().events.push('greeter ${version} start') },
      // A stop that takes a moment, so messages arrive while it is restarting.
      async stop() {
        log().events.push('greeter ${version} stop')
        await new Promise((resolve) => setTimeout(resolve, 20))
      },
      handlers: {
        async greet(invocation, ctx) {
          await ctx.reply({ text: (config.word ?? 'hello') + ' from ${version}' })
        },
      },
    }
  },
}
`
}

export const GREETER = {
  'spore.yaml': `kind: enzyme
name: greeter
septum: "^1.0"
commands:
  - name: greet
    description: greet.description
    code: greet
`,
  'src/index.ts': greeterModule('v1'),
  'translations/en.yaml': 'greet:\n  description: Greets you\n',
}

/** An enforcing inhibitor that lets everything through, and says when it is up. */
export const GATE = {
  'spore.yaml': 'kind: inhibitor\nname: gate\nseptum: "^1.0"\nenforcing: true\n',
  'src/index.ts': `const log = () => globalThis.live
export default { create: () => ({
  async start() { await new Promise((resolve) => setTimeout(resolve, 20)); log().gateUp = true },
  async stop() { log().gateUp = false; await new Promise((resolve) => setTimeout(resolve, 20)) },
  async inspect() {
    if (!log().gateUp) log().judgedWhileDown++
    return { allow: true }
  },
}) }
`,
}
