// One bot with the loopback switch on, and sporangia served from folders of its temp root, for the
// fetch-side tests: every source is added the way an operator adds one.
import { afterAll, afterEach, beforeAll } from 'bun:test'
import { join } from 'node:path'
import type { NewSource } from '@mycelo/septum'
import type { FetchingDeps } from '../../sporangium/fetching.ts'
import { sourceOutcomes } from '../../sporangium/sources.ts'
import { type Bot, probeEnzyme, startBot } from '../mycelium/harness.ts'
import { type IndexServer, serveIndex } from '../support/index-server.ts'
import { type SporangiumContents, writeSporangium } from '../support/publisher.ts'

export interface SporangiumBot {
  bot(): Bot
  /** The fetch side's deps, with limits overridden where a test asks. */
  deps(
    limits?: Partial<Bot['config']['sporangia']['limits']>,
    switches?: { allowLoopbackHttp?: boolean; githubApi?: string },
  ): FetchingDeps
  /** Adds a source the way an operator does; answers its id. */
  addSource(source: NewSource): Promise<string>
  /** Writes the sporangium, serves it, adds it as a source; answers the server and the source id. */
  publish(
    contents: SporangiumContents,
    source?: Partial<NewSource>,
  ): Promise<{ server: IndexServer; source: string; folder: string }>
}

export function sporangiumBot(): SporangiumBot {
  let bot: Bot | undefined
  let servers: IndexServer[] = []
  let sequence = 0
  beforeAll(async () => {
    bot = await startBot({
      spores: { keeper: probeEnzyme('keeper', { scopes: ['sources.manage'] }) },
      config: { sporangia: { allowLoopbackHttp: true, limits: { downloadBytes: 64 * 1024 } } },
    })
  })
  afterEach(async () => {
    await Promise.all(servers.map((server) => server.stop()))
    servers = []
  })
  afterAll(async () => {
    await bot?.stop()
  })
  const current = () => {
    if (bot === undefined) throw new Error('the bot has not started')
    return bot
  }
  return {
    bot: current,
    deps(limits = {}, switches = {}) {
      const { config, store } = current()
      return {
        store,
        config: {
          sporangia: { ...config.sporangia, ...switches, limits: { ...config.sporangia.limits, ...limits } },
        },
      }
    },
    async addSource(source) {
      const { store, config } = current()
      const added = await sourceOutcomes({ store, config }).addSource(source)
      if (!added.ok) throw new Error(`the source was refused: ${added.refusal.key}`)
      return added.value.id
    },
    async publish(contents, source = {}) {
      const folder = join(current().root, `sporangium-${++sequence}`)
      await writeSporangium(folder, contents)
      const server = await serveIndex(folder)
      servers.push(server)
      const { store, config } = current()
      const added = await sourceOutcomes({ store, config }).addSource({
        label: `Sporangium ${sequence}`,
        url: server.url,
        ...source,
      })
      if (!added.ok) throw new Error(`the source was refused: ${added.refusal.key}`)
      return { server, source: added.value.id, folder }
    },
  }
}

/** A strain's archive bytes: content only, since the fetch side proves bytes and never opens them. */
export function archiveBytes(label: string, size = 256): Uint8Array {
  const bytes = new Uint8Array(size)
  const text = new TextEncoder().encode(label)
  for (let i = 0; i < size; i++) bytes[i] = text[i % text.length] ?? 0
  return bytes
}
