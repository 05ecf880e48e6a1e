import { afterEach, describe, expect, it } from 'bun:test'
import { hostKeeper } from '../../hosts/keeper.ts'
import { startTestCore, type TestCore } from '../support/runtime.ts'
import { libRhiza } from './fault-spores.ts'

// An isolated enzyme's `ctx.t` renders in its host, from the catalogues' sources the core sent it
// once, with the core's own translator: the same words as inline, with no call into the core.

const WORDS = {
  'spore.yaml': `kind: enzyme
name: words
septum: "^1.0"
requires:
  - rhiza: lib
commands:
  - name: words
    description: command.words
    code: words
`,
  'translations/en.yaml': `command:
  words: Words
plain: a plain line
greet: "hello {name}."
films: "{count, plural, one {# film} other {# films}}"
only: only in English
`,
  'translations/fr.yaml': `command:
  words: Mots
plain: une ligne simple
greet: "bonjour {name}."
films: "{count, plural, one {# film} other {# films}}"
`,
  'src/index.ts': `
const tried = (render) => {
  try {
    return render()
  } catch (error) {
    return error.name + ': ' + error.message
  }
}
export default {
  create: () => ({
    handlers: {
      async words(invocation, ctx) {
        const lines = [
          ctx.t('plain'),
          ctx.t('greet', { name: invocation.rest }),
          ctx.t('films', { count: 1 }),
          ctx.t('films', { count: 3 }),
          ctx.t('only'),
          ctx.t('nowhere.to.be.found'),
          ctx.t('greet', { name: 'Zoé' }, 'fr'),
          ctx.t('greet', { name: 'Zoé' }, 'fr-CA'),
          ctx.t({ domain: 'lib', key: 'named' }),
          ctx.t({ domain: 'lib', key: 'named', params: { what: 'x' } }, { what: 'y' }),
          tried(() => ctx.t({ domain: 'secret', key: 'plain' })),
          ctx.t('greet'),
        ]
        await ctx.reply({ text: lines.join(' | ') })
      },
    },
  }),
}
`,
}

const LIB = libRhiza('{}', {
  'translations/en.yaml': 'named: "lib says {what}"\n',
  'translations/fr.yaml': 'named: "lib dit {what}"\n',
})

const ENGLISH = [
  'a plain line',
  'hello Ada.',
  '1 film',
  '3 films',
  'only in English',
  'nowhere.to.be.found',
  'bonjour Zoé.',
  'bonjour Zoé.',
  'named',
  'lib says y',
  'Error: spore "words" cannot read the "secret" domain: only its own, "common" and the rhizas it requires are readable',
  'greet',
].join(' | ')

let core: TestCore | undefined
afterEach(async () => {
  await core?.stop()
  core = undefined
})

async function answers(isolation: 'worker' | 'inline', locale: string): Promise<string[]> {
  core = await startTestCore({
    spores: { words: WORDS, lib: LIB },
    config: `defaultLocale: ${locale}\nisolation:\n  default: inline\n  spores: { words: ${isolation} }\n`,
  })
  const said = [...(await core.ask('/words Ada')), ...(await core.ask('/words Ada'))]
  await core.stop()
  core = undefined
  return said
}

describe("an isolated enzyme's ctx.t", () => {
  it('renders the same words as inline, in either default language', async () => {
    const inline = await answers('inline', 'en')
    expect(inline).toEqual([ENGLISH, ENGLISH])
    expect(await answers('worker', 'en')).toEqual(inline)
    const french = await answers('inline', 'fr')
    // The default language is French: a key missing from it has no other to fall back on.
    expect(french[0]).toStartWith('une ligne simple | bonjour Ada. | 1 film | 3 films | only | nowhere')
    expect(await answers('worker', 'fr')).toEqual(french)
  })

  it('renders in its host once its translator has loaded: the core renders nothing for it', async () => {
    core = await startTestCore({
      spores: { words: WORDS, lib: LIB },
      config: 'isolation:\n  default: inline\n  spores: { words: worker }\n',
    })
    expect(hostKeeper.hostOf(core.germination.byName.get('words')?.instance)).toBeDefined()
    const translator = core.assembly.runtime.translator
    const render = translator.render.bind(translator)
    let renders = 0
    translator.render = (...args: Parameters<typeof render>) => {
      renders++
      return render(...args)
    }
    // The first renders in a host ask the core while its translator loads; then none do.
    let quiet = 0
    for (let tries = 0; tries < 100 && quiet < 5; tries++) {
      const before = renders
      expect(await core.ask('/words Ada')).toEqual([ENGLISH])
      quiet = renders === before ? quiet + 1 : 0
      if (quiet === 0) await Bun.sleep(20)
    }
    expect(quiet).toBe(5)
  })
})
