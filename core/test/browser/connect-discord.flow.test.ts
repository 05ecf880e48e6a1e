// "Connect Discord" on the page, in Chromium, against the Discord fake on loopback: the token goes
// through the same connectChannel as `bun run mycelo connect discord`; a token Discord refuses and
// a Discord out of reach are said in words with nothing stored; a good one is stored as a secret,
// the channel enabled, and it goes live.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { type FakeDiscord, startFakeDiscord } from '../../../spores/discord/test/fake/index.ts'
import { realSpore } from '../support/real-spores.ts'
import { type Flow, type Person, startFlow } from './flow.ts'

let fake: FakeDiscord
let flow: Flow
let owner: Person

beforeAll(async () => {
  fake = startFakeDiscord()
  flow = await startFlow({
    spores: { discord: realSpore('discord') },
    settings: { discord: { apiBaseUrl: fake.restApi } },
  })
  owner = await flow.person()
  await owner.page.goto(flow.bot.loginLink)
  await owner.page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor()
}, 60_000)
afterAll(async () => {
  await flow?.stop()
  await fake?.stop()
})

const plugins = () => flow.bot.core.assembly.runtime.plugins

async function connectWith(token: string) {
  const { page, visit } = owner
  await visit('spores', 'Spores')
  const form = page.getByRole('region', { name: 'Connect Discord' })
  await form.getByLabel('Bot token').fill(token)
  await form.getByRole('button', { name: 'Connect Discord' }).click()
  return form
}

describe('Connect Discord on the page', () => {
  test('a token Discord refuses is said so, and nothing is stored', async () => {
    const form = await connectWith('not-the-token')
    await form
      .getByText(
        'Discord refused this token (HTTP 401): it is wrong, or it was reset. Copy it again: Discord Developer Portal → your application → Bot → Reset Token. Nothing was stored.',
      )
      .waitFor()
    expect(plugins().settingsWithFlags('discord').token).toBeUndefined()
    expect(plugins().installOf('discord')?.enabled).toBe(false)
    expect(owner.problems.filter((problem) => !problem.includes('status of 4'))).toEqual([])
  })

  test('a Discord out of reach is said so, and nothing is stored', async () => {
    const closed = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() })
    const address = `http://127.0.0.1:${closed.port}/api`
    closed.stop(true)
    plugins().setSetting('discord', 'apiBaseUrl', address)
    try {
      const form = await connectWith(fake.token)
      const said = form.getByText(`Discord could not be reached at ${address}/v10/users/@me (`)
      await said.waitFor()
      expect(await said.textContent()).toEndWith(
        "Check this machine's connection to the internet, then try again. Nothing was stored.",
      )
      expect(plugins().settingsWithFlags('discord').token).toBeUndefined()
      expect(plugins().installOf('discord')?.enabled).toBe(false)
    } finally {
      plugins().setSetting('discord', 'apiBaseUrl', fake.restApi)
    }
  })

  test('a good token is stored as a secret and the channel enabled, and it goes live', async () => {
    const form = await connectWith(fake.token)
    await form
      .getByText(
        `Discord is connected: it knows the bot as ${fake.world.bot.username}. The token is stored as a secret and the channel is enabled.`,
      )
      .waitFor()
    expect(plugins().settingsWithFlags('discord').token).toEqual({ value: fake.token, secret: true })
    expect(plugins().installOf('discord')?.enabled).toBe(true)
    // The list reads the state again: the channel connected to the fake's gateway.
    const row = owner.page
      .getByRole('row')
      .filter({ has: owner.page.getByRole('rowheader', { name: /^discord/ }) })
    await row.getByText('live', { exact: true }).waitFor()
    // The field is emptied: the token is not left on the screen.
    expect(await form.getByLabel('Bot token').inputValue()).toBe('')
  })
})
