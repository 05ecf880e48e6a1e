// The enzyme both benchmarks answer with: /ping (respond:) and /echo (code:).

export const BENCH_ENZYME = {
  'spore.yaml': `kind: enzyme
name: bench
septum: "^1.0"
commands:
  - name: ping
    description: ping.description
    respond: ping.text
  - name: echo
    description: echo.description
    code: echo
    args:
      - name: text
        description: echo.text
`,
  'src/index.ts': `
export default {
  create: () => ({
    handlers: {
      async echo(invocation, ctx) {
        await ctx.reply({ text: ctx.t('echo.reply', { text: invocation.args.text ?? '' }) })
      },
    },
  }),
}
`,
  'translations/en.yaml': 'ping:\n  text: pong\necho:\n  reply: "echo: {text}"\n',
}
