// A bot furnished as an operator would have it after a while, for the page's screen tests: a
// connected system and commands that need it (one missing its requirement), a channel whose service
// is down, people the bot has met, a rule, a broadcast target and a loopback source with a spore
// installed from it, a stored secret. Both the wide screens test and the phone-width test read it.
import { expect } from 'bun:test'
import type { IncomingMessage } from '@mycelo/septum'
import { loginTickets } from '../../http/tickets.ts'
import { LOOPBACK_SPORANGIA, serveProbeSporangium } from '../http/api/sporangium.ts'
import { type Signed, WebClient } from '../http/web.ts'
import { scratchFolder } from '../store/scratch.ts'
import { type CoreWith, startCoreWith } from '../support/boot-core.ts'
import type { IndexServer } from '../support/index-server.ts'
import { realSpore } from '../support/real-spores.ts'
import { CHAT_HYPHA } from '../support/runtime.ts'

/** A connected system, a command spore that needs it, and one that needs what is not there. */
const FILMS = {
  'spore.yaml': 'kind: rhiza\nname: films\nseptum: "^1.0"\ndescription: Films from a home library\n',
  'src/index.ts': `export default { create: () => ({
    async start() {}, async stop() {},
    health: () => ({ state: 'healthy', detail: 'library reachable', checkedAt: new Date() }),
    api: {},
  }) }`,
}
const WATCH = {
  'spore.yaml':
    'kind: enzyme\nname: watch\nseptum: "^1.0"\nrequires:\n  - rhiza: films\ncommands:\n  - { name: tonight, description: command.tonight, respond: tonight }\n',
  'translations/en.yaml': 'command:\n  tonight: What to watch tonight\ntonight: A film tonight\n',
}
const SERIES = {
  'spore.yaml':
    'kind: enzyme\nname: series\nseptum: "^1.0"\nrequires:\n  - rhiza: shows\ncommands:\n  - { name: episodes, description: command.episodes, respond: episodes }\n',
  'translations/en.yaml': 'command:\n  episodes: New episodes\nepisodes: None yet\n',
}
/** A channel whose service is down: switched on, and dormant with the reason it gives. */
const PAGER = {
  'spore.yaml': 'kind: hypha\nname: pager\nseptum: "^1.0"\ncapabilities: []\n',
  'src/index.ts': `export default { create: () => ({
    async connect() { throw new Error('cannot reach the pager gateway at 127.0.0.1:9') },
    async listen() {}, async stop() {}, async send() {},
  }) }`,
}

/** The Discord token stored before the page is opened: no screen and no picture may show it. */
export const DISCORD_TOKEN = 'discord-token-kept-4d2f'

export interface FurnishedBot {
  readonly core: CoreWith
  readonly url: string
  readonly client: WebClient
  /** The owner signed in through the API, beside the browser's own sign-in. */
  readonly owner: Signed
  /** A message from someone on the test channel, through the real message path. */
  say(from: string, displayName: string, text: string): Promise<void>
  /** A one-time link for the person known on the test channel as `externalId`. */
  linkFor(externalId: string): string
  stop(): Promise<void>
}

export async function startFurnishedBot(name: string): Promise<FurnishedBot> {
  const scratch = scratchFolder(name)
  let index: IndexServer | undefined
  let core: CoreWith | undefined
  try {
    index = await serveProbeSporangium(scratch.path)
    // The bot as `bun run start` runs it: its own HTTP server, its own log tap feeding the page.
    core = await startCoreWith({
      spores: {
        chat: CHAT_HYPHA,
        admin: realSpore('admin'),
        help: realSpore('help'),
        discord: realSpore('discord'),
        // Disabled with a setting problem (no account, no address), as a fresh clone has it.
        signal: realSpore('signal'),
        films: FILMS,
        watch: WATCH,
        series: SERIES,
        pager: PAGER,
        web: realSpore('web'),
      },
      config: `owner: { channel: chat, userId: owner }\n${LOOPBACK_SPORANGIA}`,
      roles: { moderator: ['admin.plugins', 'admin.health', 'admin.people'] },
      grants: [{ channel: 'chat', externalId: 'ana', roles: ['moderator'] }],
    })
    return await furnish(core, index, scratch)
  } catch (error) {
    await core?.stop()
    await index?.stop()
    scratch.remove()
    throw error
  }
}

async function furnish(
  core: CoreWith,
  index: IndexServer,
  scratch: { remove(): void },
): Promise<FurnishedBot> {
  const url = core.running.http!.url
  const client = new WebClient(url)
  const say = (from: string, displayName: string, text: string): Promise<void> => {
    const chat = core.running.germination.byName.get('chat')?.instance as {
      say(message: IncomingMessage): Promise<void>
    }
    return chat.say({
      channel: 'chat',
      conversationId: `dm-${from}`,
      messageId: `${from}-${text}`,
      sender: { channel: 'chat', externalId: from, displayName },
      text,
      attachments: [],
      raw: null,
      receivedAt: new Date(),
    })
  }
  const { store, directory } = core.running.assembly!.runtime
  const linkFor = (externalId: string): string => {
    const principalId = directory.resolve({ channel: 'chat', externalId }).id
    return `${url}/login#${loginTickets(store).issue({ principalId, form: 'link', now: Date.now() }).secret}`
  }
  // People the bot has met, and a source with something to offer, as an operator would have them.
  await say('ana', 'Ana', '/help')
  await say('ben', 'Ben', 'hello')
  // The API client signs in with a link of its own; the browser keeps the one printed at start.
  const owner = await client.signIn(linkFor('owner').split('#')[1]!)
  const added = await client.send('/api/v1/sources', {
    session: owner,
    body: { label: 'Home sporangium', url: index.url },
  })
  expect(added.status).toBe(200)
  const installed = await client.send('/api/v1/installs', {
    session: owner,
    body: { source: String((added.body.source as { id: string }).id), spore: 'probe', strain: '1.0.0' },
  })
  expect(installed.status).toBe(200)
  // A secret already stored, as an operator would have typed it in chat: the form must keep it.
  const secret = await client.send('/api/v1/spores/discord/settings', {
    session: owner,
    method: 'PATCH',
    body: { values: { token: DISCORD_TOKEN } },
  })
  expect(secret.status).toBe(200)
  const rule = await client.send('/api/v1/rules/watch.tonight', {
    session: owner,
    method: 'PUT',
    body: { allowed: ['group'] },
  })
  expect(rule.status).toBe(200)
  const target = await client.send('/api/v1/broadcast-targets', {
    session: owner,
    body: { channel: 'chat', conversationId: 'family-group' },
  })
  expect(target.status).toBe(200)
  return {
    core,
    url,
    client,
    owner,
    say,
    linkFor,
    async stop() {
      await core.stop()
      await index.stop()
      scratch.remove()
    },
  }
}
