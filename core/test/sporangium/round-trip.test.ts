// The round trip that proves the sporangium format end to end: the five first-party spores
// published with the author's tool (keygen, pack, a signed index.json), served on loopback,
// installed back through the real mycelium inoculate (a spore granted sources.manage), and
// germinated by a fresh bot whose only spores folder is the installs folder.
import { afterAll, beforeAll, expect, it } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type PluginKind, type SourcesManage, sporangiumIndexSchema } from '@mycelo/septum'
import { germinate } from '../../germination/index.ts'
import { createPluginStore, openStore } from '../../store/index.ts'
import { type Bot, probeEnzyme, startBot } from '../mycelium/harness.ts'
import { FIRST_PARTY, ROOT, runTool } from '../sporangia-tool/tool.ts'
import { type IndexServer, serveIndex } from '../support/index-server.ts'

const KINDS: Readonly<Record<string, PluginKind>> = {
  admin: 'enzyme',
  console: 'hypha',
  discord: 'hypha',
  help: 'enzyme',
  signal: 'hypha',
}

/** Real processes and real HTTP on a shared machine: generous, never a measure. */
const PROCESS_TIMEOUT = 60_000

let bot: Bot
let server: IndexServer
let publicKey: string
let strains: Record<string, string>
const silent = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent }

beforeAll(async () => {
  bot = await startBot({
    spores: { keeper: probeEnzyme('keeper', { scopes: ['sources.manage'] }) },
    config: { sporangia: { allowLoopbackHttp: true } },
  })
  const key = join(bot.root, 'publisher.pem')
  const sporangium = join(bot.root, 'sporangium')
  const keygen = await runTool(['keygen', key])
  expect(keygen.code).toBe(0)
  publicKey = keygen.stdout.match(/Public key: (\S+)/)?.[1] ?? ''
  for (const spore of FIRST_PARTY) {
    const args = ['pack', join(ROOT, 'spores', spore), '--out', sporangium, '--key', key]
    const packed = await runTool([...args, '--name', 'Mycelo first-party spores'])
    expect({ spore, code: packed.code, stderr: packed.stderr }).toEqual({ spore, code: 0, stderr: '' })
  }
  const index = sporangiumIndexSchema.parse(JSON.parse(readFileSync(join(sporangium, 'index.json'), 'utf8')))
  strains = Object.fromEntries(
    Object.entries(index.spores).map(([name, spore]) => [name, Object.keys(spore.strains)[0] ?? '']),
  )
  server = await serveIndex(sporangium)
}, 60_000)
afterAll(async () => {
  await server?.stop()
  await bot?.stop()
})

it(
  'installs the five first-party spores from their signed sporangium and germinates them',
  async () => {
    const keeper = bot.surface<SourcesManage>('keeper')
    // Pinned from the start: every strain must verify with the key the author generated.
    const source = await keeper.addSource({ label: 'First party', url: server.url, publisherKey: publicKey })
    const offered = await keeper.offered(source.id)
    expect(Object.fromEntries(offered.map((spore) => [spore.name, spore.kind]))).toEqual(KINDS)
    const installs = bot.config.sporangia.installs
    for (const spore of FIRST_PARTY) {
      const inoculation = await keeper.inoculate({ source: source.id, spore })
      expect(inoculation).toEqual({
        spore,
        strain: strains[spore] ?? '',
        source: source.id,
        path: join(installs, spore),
      })
    }
    const rows = createPluginStore(bot.store)
    for (const spore of FIRST_PARTY)
      expect(rows.installOf(spore)).toMatchObject({
        enabled: false,
        reason: expect.stringContaining('installed at'),
      })

    // A fresh bot over the installs folder alone, so nothing shipped is discovered beside them.
    const store = openStore({ path: join(bot.root, 'fresh.db') })
    try {
      // The channels' own settings, as an operator would give them before enabling them.
      const fresh = createPluginStore(store)
      fresh.setSetting('discord', 'token', 'a-token', { secret: true })
      fresh.setSetting('signal', 'account', '+15550001111')
      fresh.setSetting('signal', 'address', '127.0.0.1:7583')
      const germination = await germinate({ folders: [installs], store: fresh, logger: silent })
      expect(germination.spores.map((spore) => spore.name)).toEqual([...FIRST_PARTY])
      // Every one is created, its bundle imported from the installs folder and its create() run.
      for (const spore of germination.spores) {
        expect({ name: spore.name, state: spore.state, reason: spore.reason }).toEqual({
          name: spore.name,
          state: 'live',
          reason: undefined,
        })
        expect(spore.kind).toBe(KINDS[spore.name])
        expect(spore.dir).toBe(join(installs, spore.name))
        expect(spore.instance).toBeDefined()
      }
    } finally {
      store.close()
    }
  },
  PROCESS_TIMEOUT,
)
