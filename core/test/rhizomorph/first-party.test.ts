// The help and admin spores, as shipped, through the real bus over a real SQLite file.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { realSpore } from '../support/real-spores.ts'
import { startTestCore, type TestCore } from '../support/runtime.ts'
import { FILMS } from './spores.ts'

const NEEDY = {
  'spore.yaml': 'kind: rhiza\nname: needy\nseptum: "^1.0"\n',
  'src/index.ts': `import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'
export default {
  configSchema: defineConfig(
    z.object({ apiKey: z.string().min(1), servers: z.array(z.string()).optional() }),
    { secrets: ['apiKey'] },
  ),
  create: () => ({
    api: {},
    async start() {},
    async stop() {},
    async health() { return { state: 'healthy', checkedAt: new Date() } },
  }),
}
`,
}

const STALLED = {
  'spore.yaml': `kind: enzyme
name: stalled
septum: "^1.0"
commands:
  - name: projector
    description: projector.description
    code: run
`,
  'src/index.ts': `export default { create: () => ({
  async start() { throw new Error('the bulb is out') },
  handlers: { async run(invocation, ctx) { await ctx.reply({ text: 'ran' }) } },
}) }
`,
  'translations/en.yaml': 'projector:\n  description: Runs the projector\n',
}

let core: TestCore
beforeAll(async () => {
  core = await startTestCore({
    spores: {
      help: realSpore('help'),
      admin: realSpore('admin'),
      films: FILMS,
      needy: NEEDY,
      stalled: STALLED,
    },
  })
})
afterAll(() => core.stop())

const one = async (text: string, from?: string) => (await core.ask(text, from ? { from } : {})).join('\n')

describe('help through the real bus', () => {
  it("lists what the owner may run, with arguments, in the reader's locale", async () => {
    const listing = await one('/help')
    expect(listing).toContain('/add <title> [year]')
    expect(listing).toContain('Queue a film')
    expect(listing).toContain('/help')
    expect(listing).toContain('/enable <spore>')
    expect(listing).toContain(
      '/rule <command> <where> — Allow a command in direct messages, in groups, or both',
    )
  })

  it('lists to a newcomer only what the default role grants: help, and choosing a language', async () => {
    const listing = await one('/help', 'newcomer')
    expect(listing).toContain('/help')
    expect(listing).toContain('/lang')
    expect(listing).not.toContain('/add')
    expect(listing).not.toContain('/enable')
  })

  it('lists a command whose enzyme failed to start, drawn from the route map; running it says unavailable', async () => {
    expect(core.germination.byName.get('stalled')?.state).toBe('dormant')
    expect(await one('/help')).toContain('/projector — Runs the projector')
    expect(await one('/projector')).toBe('/projector is not available right now; the operator can see why.')
  })

  it('explains one command with its arguments', async () => {
    const explained = await one('/help films.add')
    expect(explained).toContain('Film title')
    expect(explained).toContain('Release year')
  })
})

describe('admin through the real bus', () => {
  it('lists the plugins and their states', async () => {
    const listing = await one('/plugins')
    for (const name of ['admin', 'chat', 'films', 'help']) expect(listing).toContain(name)
    expect(listing).toMatch(/needy.*(disabled|dormant)/)
  })

  it('refuses to enable a plugin whose stored settings fail its schema, then enables it once set', async () => {
    expect(await one('/enable needy')).toContain('configuration is incomplete: apiKey:')
    await one('/set needy apiKey s3cret-value')
    expect(await one('/settings needy')).toContain('••••')
    expect(await one('/settings needy')).not.toContain('s3cret-value')
    expect(await one('/enable needy')).not.toContain('incomplete')
    expect(core.assembly.runtime.plugins.installOf('needy')?.enabled).toBe(true)
  })

  it('stores a JSON list typed in chat as a list, its quoted ids kept as text', async () => {
    await one('/set needy servers ["123456789012345678", "42"]')
    expect(await one('/settings needy')).toContain('servers = ["123456789012345678","42"]')
    await one('/set needy servers ["123456789012345678"]')
    expect(await one('/settings needy')).toContain('servers = ["123456789012345678"]')
  })

  it('creates a role, grants it, and the very next message is authorised by it', async () => {
    expect(await one('/films.ping', 'critic')).toBe('You are not allowed to run /films.ping.')
    await one('/role-create critics films.*')
    const id = core.assembly.runtime.directory.resolve({ channel: 'chat', externalId: 'critic' }).id
    await one(`/grant ${id} critics`)
    expect(await one('/films.ping', 'critic')).toBe('pong in English')
  })

  it('switches the reader to French with /lang, and the bot answers in French from then on', async () => {
    await one('/lang fr', 'polyglot')
    expect(await one('/nope', 'polyglot')).toContain('Je ne connais pas la commande /nope')
  })

  it('refuses a newcomer the admin commands, in their locale', async () => {
    expect(await one('/plugins', 'newcomer')).toBe('You are not allowed to run /plugins.')
  })
})
