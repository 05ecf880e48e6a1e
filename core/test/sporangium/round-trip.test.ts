// The round trip that proves the sporangium format end to end: the five first-party spores packed
// into strain archives and a signed index.json, served on loopback, installed back through the real
// mycelium inoculate (a spore granted sources.manage) and germinated from the installs folder alone.
import { afterAll, beforeAll, expect, it } from 'bun:test'
import { join } from 'node:path'
import type { SourcesManage } from '@mycelo/septum'
import { germinate } from '../../germination/index.ts'
import { createPluginStore, openStore } from '../../store/index.ts'
import { writeSpore } from '../boot/process.ts'
import { type Bot, probeEnzyme, startBot } from '../mycelium/harness.ts'
import { type IndexServer, serveIndex } from '../support/index-server.ts'
import { newPublisher, writeSporangium } from '../support/publisher.ts'
import { realSpore } from '../support/real-spores.ts'
import { pack } from './install/ground.ts'

const FIRST_PARTY = ['admin', 'console', 'discord', 'help', 'signal'] as const
const KINDS = { admin: 'enzyme', console: 'hypha', discord: 'hypha', help: 'enzyme', signal: 'hypha' }

let bot: Bot
let server: IndexServer
const silent = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent }

beforeAll(async () => {
  bot = await startBot({
    spores: { keeper: probeEnzyme('keeper', { scopes: ['sources.manage'] }) },
    config: { sporangia: { allowLoopbackHttp: true } },
  })
  const publisher = await newPublisher()
  const spores: Parameters<typeof writeSporangium>[1]['spores'] = {}
  for (const name of FIRST_PARTY) {
    const folder = writeSpore(join(bot.root, 'packing'), name, realSpore(name))
    spores[name] = { kind: KINDS[name], strains: { '1.0.0': { bytes: await pack(folder) } } }
  }
  const sporangium = join(bot.root, 'sporangium')
  await writeSporangium(sporangium, { name: 'first party', publisher, spores })
  server = await serveIndex(sporangium)
  const keeper = bot.surface<SourcesManage>('keeper')
  await keeper.addSource({ label: 'First party', url: server.url, publisherKey: publisher.key })
})
afterAll(async () => {
  await server?.stop()
  await bot?.stop()
})

it('installs the five first-party spores from a signed loopback sporangium and germinates them', async () => {
  const keeper = bot.surface<SourcesManage>('keeper')
  const offered = await keeper.offered('first-party')
  expect(offered.map((spore) => [spore.name, spore.kind])).toEqual(
    FIRST_PARTY.map((name) => [name, KINDS[name]]),
  )
  const installs = bot.config.sporangia.installs
  for (const spore of FIRST_PARTY) {
    const inoculation = await keeper.inoculate({ source: 'first-party', spore })
    expect(inoculation).toEqual({
      spore,
      strain: '1.0.0',
      source: 'first-party',
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
    const germination = await germinate({
      folders: [installs],
      store: createPluginStore(store),
      logger: silent,
    })
    const states = Object.fromEntries(germination.spores.map((spore) => [spore.name, spore.state]))
    expect(Object.keys(states).sort()).toEqual([...FIRST_PARTY])
    for (const spore of germination.spores) {
      expect(spore.kind).toBe(KINDS[spore.name as keyof typeof KINDS])
      expect(spore.dir).toBe(join(installs, spore.name))
    }
    // Every one is created: its module imported and its create() run, as a start would.
    for (const spore of FIRST_PARTY) {
      expect(states[spore]).toBe('live')
      expect(germination.byName.get(spore)?.instance).toBeDefined()
    }
  } finally {
    store.close()
  }
})
