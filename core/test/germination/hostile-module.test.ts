import { describe, expect, it } from 'bun:test'
import { FILMS } from '../rhizomorph/spores.ts'
import { startTestCore } from '../support/runtime.ts'
import { germinateIn, manifestOf, SqliteStore, scratchRoot, sporeNamed, writeSpore } from './fixtures.ts'

const root = scratchRoot()

const enzymeManifest = (name: string, code: string) => ({
  kind: 'enzyme',
  name,
  septum: '^1.0',
  commands: [{ name: 'go', description: 'd', code }],
})

// Each a default export that faults when the core reads it; none may stop the others germinating.
const HOSTILE: Record<string, string> = {
  proxy: `export default new Proxy({}, { get() { throw new Error('proxy trap') } })`,
  'create-getter': `export default { get create() { throw new Error('no create for you') } }`,
  'schema-getter': `export default { create: () => ({ handlers: { go() {} } }), get configSchema() { throw new Error('no schema') } }`,
  'secrets-getter': `export default { create: () => ({ handlers: { go() {} } }), configSchema: { safeParse: (v) => ({ success: true, data: v }), get secrets() { throw new Error('no secrets') } } }`,
  'handlers-getter': `export default { create: () => ({ get handlers() { throw new Error('no handlers') } }) }`,
  'instance-proxy': `export default { create: () => new Proxy({}, { get() { throw new Error('instance trap') }, has() { throw new Error('instance trap') } }) }`,
}

describe('a hostile default export', () => {
  it('makes that spore dormant with a reason, and every other spore still germinates', async () => {
    const dir = root()
    for (const [name, source] of Object.entries(HOSTILE)) {
      await writeSpore(dir, name, { manifest: enzymeManifest(name, 'go'), files: { 'src/index.ts': source } })
    }
    await writeSpore(dir, 'fine', {
      manifest: manifestOf('rhiza', 'fine'),
      files: {
        'src/index.ts':
          "export default { create: () => ({ async start() {}, async stop() {}, async health() { return { state: 'healthy', checkedAt: new Date() } }, api: {} }) }\n",
      },
    })
    const { germination } = await germinateIn(dir, SqliteStore.enabling(...Object.keys(HOSTILE), 'fine'))
    expect(sporeNamed(germination, 'fine').state).toBe('live')
    const reasons = Object.fromEntries(
      Object.keys(HOSTILE).map((name) => [name, sporeNamed(germination, name)]),
    )
    for (const [name, spore] of Object.entries(reasons)) {
      expect({ name, state: spore.state }).toEqual({ name, state: 'dormant' })
    }
    expect(reasons.proxy?.reason).toContain('proxy trap')
    expect(reasons['create-getter']?.reason).toContain('no create for you')
    expect(reasons['schema-getter']?.reason).toContain('no schema')
    expect(reasons['secrets-getter']?.reason).toContain('no secrets')
    expect(reasons['handlers-getter']?.reason).toContain('no handlers')
    expect(reasons['instance-proxy']?.reason).toContain('instance trap')
  })

  for (const inherited of ['constructor', 'toString', 'hasOwnProperty', '__proto__']) {
    it(`refuses code: ${inherited} that only the prototype answers`, async () => {
      const dir = root()
      await writeSpore(dir, 'proto', {
        manifest: enzymeManifest('proto', inherited),
        files: { 'src/index.ts': 'export default { create: () => ({ handlers: {} }) }\n' },
      })
      const { germination } = await germinateIn(dir, SqliteStore.enabling('proto'))
      const spore = sporeNamed(germination, 'proto')
      expect(spore.state).toBe('dormant')
      expect(spore.reason).toContain(`a handler "${inherited}"`)
    })
  }
})

describe('a handler looked up by the bus', () => {
  it('is the handlers object’s own member, called with it as this', async () => {
    const core = await startTestCore({
      spores: {
        films: FILMS,
        own: {
          'spore.yaml':
            'kind: enzyme\nname: own\nseptum: "^1.0"\ncommands:\n  - { name: who, description: d, code: who }\n',
          'src/index.ts':
            "export default { create: () => ({ handlers: { label: 'mine', async who(_i, ctx) { await ctx.reply({ text: this.label }) } } }) }\n",
        },
      },
    })
    try {
      expect(await core.ask('/who')).toEqual(['mine'])
    } finally {
      await core.stop()
    }
  })
})
