import { afterEach, describe, expect, it } from 'bun:test'
import { hostKeeper } from '../../hosts/keeper.ts'
import { startTestCore, type TestCore } from '../support/runtime.ts'
import { libRhiza } from './fault-spores.ts'

const ENZYME = {
  'spore.yaml': `kind: enzyme
name: echo
septum: "^1.0"
requires:
  - rhiza: lib
  - rhiza: mycelium
    scopes: [plugins.read]
commands:
  - name: echo
    description: command.echo
    code: echo
  - name: count
    description: command.count
    code: count
  - name: where
    description: command.where
    code: where
  - name: fail
    description: command.fail
    code: fail
`,
  'translations/en.yaml':
    'command:\n  echo: Echo\n  count: Count\n  where: Where\n  fail: Fail\nsaid: "you said {text}"\n',
  'src/index.ts': `
export default {
  create: () => ({
    handlers: {
      async echo(invocation, ctx) {
        ctx.logger.info('echoing', { rest: invocation.rest })
        await ctx.reply({ text: ctx.t('said', { text: invocation.rest }) })
      },
      async count(_invocation, ctx) {
        const n = ((await ctx.storage.get('n')) ?? 0) + 1
        await ctx.storage.set('n', n)
        const lib = ctx.rhiza('lib')
        const doubled = await lib.double(n)
        const names = ctx.rhiza('mycelium').listPlugins().map((p) => p.name).sort().join(',')
        await ctx.reply({ text: \`\${n} \${doubled} \${ctx.has('lib')} \${ctx.capabilities.has('reactions')} \${names}\` })
      },
      async where(_invocation, ctx) {
        await ctx.reply({ text: \`\${ctx.locale} \${ctx.principal.id.length > 0} \${await ctx.localeFor({ channel: 'chat', conversationId: 'dm-owner' })}\` })
      },
      async fail() {
        const error = new Error('refused on purpose')
        error.name = 'PurposeError'
        error.code = 'E_PURPOSE'
        throw error
      },
    },
  }),
}
`,
}

const LIB = libRhiza('{ double: (n) => n * 2 }')

let core: TestCore | undefined
afterEach(async () => {
  await core?.stop()
  core = undefined
})

describe('an isolated spore', () => {
  for (const lib of ['worker', 'inline'] as const) {
    it(`answers through every bridged context member (its rhiza ${lib})`, async () => {
      core = await startTestCore({
        spores: { echo: ENZYME, lib: LIB },
        config: `isolation:\n  default: worker\n  spores: { chat: inline, lib: ${lib} }\n`,
      })
      expect(hostKeeper.hostOf(core.germination.byName.get('echo')?.instance)).toBeDefined()
      expect(await core.ask('/echo hello there')).toEqual(['you said hello there'])
      expect(await core.ask('/count')).toEqual(['1 2 true true chat,echo,lib'])
      expect(await core.ask('/count')).toEqual(['2 4 true true chat,echo,lib'])
      expect(await core.ask('/where')).toEqual(['en true en'])
      const failed = await core.ask('/fail')
      expect(failed).toHaveLength(1)
      const logged = core.logs().find((line) => line.msg === 'a command handler failed')
      expect(JSON.stringify(logged)).toContain('refused on purpose')
      expect(core.logs().some((line) => line.msg === 'echoing' && line.spore === 'echo')).toBe(true)
    })
  }
})
