// Spores that fault on purpose, each the way an operator's faulty third-party spore would, and the
// helpers the fault tests share: a bot where every one of them runs in a host of its own.
import type { TestCore } from '../support/runtime.ts'

/** An enzyme answering `/<name>` with `body` (the fault) and `/<name>-ok` with "ok <name>". */
export function faultyEnzyme(name: string, body: string, extra = ''): Record<string, string> {
  return {
    'spore.yaml': `kind: enzyme
name: ${name}
septum: "^1.0"
commands:
  - { name: ${name}, description: fault, code: fault }
  - { name: ${name}-ok, description: ok, code: fine }
`,
    'src/index.ts': `
import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
// A fault that happens once: the marker is consumed, so the restarted host runs normally.
const once = () => {
  const marker = join(import.meta.dir, '..', 'fault-once')
  if (!existsSync(marker)) return false
  rmSync(marker)
  return true
}
void once
${extra}
export default {
  create: () => ({
    handlers: {
      async fault(invocation, ctx) { ${body} },
      async fine(invocation, ctx) { await ctx.reply({ text: 'ok ${name}' }) },
    },
  }),
}
`,
  }
}

/** An isolated enzyme nobody faults: what "another person" asks during each fault. */
export const PONG = faultyEnzyme('pong', "await ctx.reply({ text: 'pong' })")

export const FAULT_CONFIG = `timeouts: { handler: 2000, inspect: 800, start: 2000, create: 2000, stop: 1000 }
isolation:
  default: worker
  answerMs: 1000
  spores: { chat: inline }
`

/** Sends `text` from `from` and answers what was sent back to them within `ms` (none: []). */
export async function answered(core: TestCore, text: string, from: string, ms: number): Promise<string[]> {
  const conversation = `dm-${from}`
  const mine = () => core.sent.filter((sent) => sent.conversationId === conversation)
  const before = mine().length
  void core.say(text, { from })
  const until = Date.now() + ms
  for (;;) {
    const got = mine().slice(before)
    if (got.length > 0) return got.map((sent) => sent.content.text ?? '')
    if (Date.now() > until) return []
    await Bun.sleep(20)
  }
}

/** Asks `/<name>-ok` until it answers "ok <name>" (its host restarted), or gives up after `ms`. */
export async function answersAgain(
  core: TestCore,
  name: string,
  from: string,
  ms = 30_000,
): Promise<boolean> {
  const until = Date.now() + ms
  while (Date.now() < until) {
    const replies = await answered(core, `/${name}-ok`, from, 5_000)
    if (replies.includes(`ok ${name}`)) return true
    await Bun.sleep(200)
  }
  return false
}

/** A healthy rhiza named lib that only offers `api` (an object literal's source) to spores that call it. */
export function libRhiza(api: string, extraFiles: Record<string, string> = {}): Record<string, string> {
  return {
    'spore.yaml': 'kind: rhiza\nname: lib\nseptum: "^1.0"\n',
    ...extraFiles,
    'src/index.ts': `
export default {
  create: () => ({
    async start() {},
    async stop() {},
    async health() { return { state: 'healthy', checkedAt: new Date() } },
    api: ${api},
  }),
}
`,
  }
}
