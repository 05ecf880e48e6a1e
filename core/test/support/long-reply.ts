// An enzyme whose answer is longer than any chat message limit, for end-to-end tests of how a
// channel delivers a long reply: `/long` replies with numbered lines, then with a short closing line.

const LINE_COUNT = 90

/** 90 numbered lines, a little over 5,000 characters: more than two Discord messages' worth. */
export const LONG_TEXT = Array.from(
  { length: LINE_COUNT },
  (_, index) =>
    `line ${String(index + 1).padStart(3, '0')} of ${LINE_COUNT}: the quick brown fox jumps over the lazy dog`,
).join('\n')

/** The second reply of `/long`, sent after the long one. */
export const LONG_DONE = 'long reply finished'

/** The spore's files; grant `long.*` to whoever should run it. */
export const LONG_REPLY_SPORE: Record<string, string> = {
  'spore.yaml': `kind: enzyme
name: long
septum: "^1.0"
commands:
  - name: long
    description: command.long.description
    code: long
`,
  'src/index.ts': `
export default {
  create: () => ({
    handlers: {
      async long(invocation, ctx) {
        await ctx.reply({ text: ${JSON.stringify(LONG_TEXT)} })
        await ctx.reply({ text: ${JSON.stringify(LONG_DONE)} })
      },
    },
  }),
}
`,
  'translations/en.yaml': 'command:\n  long:\n    description: Answer with a very long text\n',
}
