// Every screen of the admin page in a real Chromium against a real bot on loopback: signed in
// through the one-time link printed at start, each screen visited and photographed for the README
// (docs/screenshots/ when MYCELO_SCREENSHOTS=docs, else a scratch folder, so a test run leaves the
// committed pictures alone), in English, in French and in the dark theme. Assertions read visible text.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { loginTickets } from '../../http/tickets.ts'
import type { Signed, WebClient } from '../http/web.ts'
import type { CoreWith } from '../support/boot-core.ts'
import { DISCORD_TOKEN, type FurnishedBot, startFurnishedBot } from './furnished.ts'
import { launchBrowser } from './launch.ts'

const SHOTS =
  process.env.MYCELO_SCREENSHOTS === 'docs'
    ? join(import.meta.dir, '..', '..', '..', 'docs', 'screenshots')
    : join(tmpdir(), `mycelo-screens-${process.pid}`)

let bot: FurnishedBot
let core: CoreWith
let url: string
let client: WebClient
let browser: Browser
let page: Page
let owner: Signed

beforeAll(async () => {
  bot = await startFurnishedBot('screens')
  ;({ core, url, client, owner } = bot)
  browser = await launchBrowser()
  page = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' })
  // Well inside the test's own time, so a missing element fails with its locator, not a timeout.
  page.setDefaultTimeout(8000)
  mkdirSync(SHOTS, { recursive: true })
})

afterAll(async () => {
  await browser?.close()
  await bot?.stop()
})

async function visit(screen: string, heading: string): Promise<void> {
  await page.goto(`${url}/#/${screen}`)
  await page.getByRole('heading', { level: 1, name: heading }).waitFor()
}

/** A full-page picture; a key's secret shown once is masked, so no picture ever carries one. */
async function shoot(name: string): Promise<void> {
  await page.screenshot({
    path: join(SHOTS, `${name}.png`),
    fullPage: true,
    mask: [page.locator('.secret-value')],
    // A picture of a long page takes a while on a busy machine; it is no assertion.
    timeout: 30_000,
  })
}

describe('the admin page, screen by screen', () => {
  test('the one-time link signs the owner in and opens the overview', async () => {
    expect(core.running.http!.loginLink!).toContain('/login#')
    await page.goto(core.running.http!.loginLink!)
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor()
    const problems: string[] = []
    page.on('pageerror', (error) => problems.push(error.message))
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text())
    })
    await page.reload()
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor()
    const attention = page.getByRole('region', { name: 'Needs attention' })
    await attention.getByText('pager', { exact: true }).waitFor()
    const spores = page.getByRole('region', { name: 'Every spore' })
    await spores.getByRole('row', { name: /films/ }).getByText('live').waitFor()
    await page.getByRole('region', { name: 'Channels and systems' }).getByText('library reachable').waitFor()
    await shoot('overview')
    // Nothing the CSP refused, nothing thrown.
    expect(problems).toEqual([])
  })

  test('spores: switches, the settings form drawn from its schema, and the requires graph', async () => {
    await visit('spores', 'Spores')
    const discord = page.getByRole('row', { name: /discord/ }).first()
    await discord.getByText('disabled').waitFor()
    await page.getByRole('button', { name: 'Settings of discord' }).click()
    const form = page.getByRole('region', { name: 'Settings of discord' })
    // The stored token reaches the page only as the mask, and saving it unchanged keeps it.
    expect(await form.getByLabel(/^Bot token/).inputValue()).toBe('••••')
    expect(await page.content()).not.toContain(DISCORD_TOKEN)
    await page.getByRole('img', { name: 'The requires graph of the installed spores' }).waitFor()
    await shoot('spores')
    await form.getByRole('button', { name: 'Save settings' }).click()
    await page.getByText('Settings of discord saved.').waitFor()
    expect(core.running.plugins.settingsWithFlags('discord').token?.value).toBe(DISCORD_TOKEN)
  })

  test('install: sources with their trust, what one offers, and what an installed spore asks for', async () => {
    await visit('install', 'Install')
    const sources = page.getByRole('region', { name: 'Sources' })
    await sources
      .getByRole('row', { name: /Home sporangium/ })
      .getByText('third-party')
      .waitFor()
    await page.getByRole('button', { name: 'What Home sporangium offers' }).click()
    await page
      .getByRole('region', { name: 'What Home sporangium offers' })
      .getByText('probe')
      .first()
      .waitFor()
    const installed = page.getByRole('region', { name: 'Installed from sources' })
    await installed
      .getByText('probe is commands', { exact: false })
      .or(installed.getByText('adds commands'))
      .first()
      .waitFor()
    await shoot('install')
    // Uninstalling can take the spore's stored data with it, after the person confirms.
    await installed.getByLabel('and delete its data').check()
    page.once('dialog', (dialog) => void dialog.accept())
    await installed.getByRole('button', { name: 'Uninstall probe' }).click()
    await page.getByText('probe is uninstalled, and the data it stored deleted.').waitFor()
    await installed.getByText('Nothing installed from a source yet').waitFor()
  })

  test('people and roles: identities, roles, and the commands a role allows', async () => {
    await visit('people', 'People and roles')
    await page
      .getByRole('row', { name: /^ana\b/ })
      .getByText('moderator')
      .waitFor()
    await page.getByRole('row', { name: /^Ben\b/ }).waitFor()
    await page.getByRole('button', { name: 'Edit moderator' }).click()
    // admin.health, admin.people and admin.plugins: three commands, matched by the API.
    await page.getByText(/Allows 3 of \d+ commands/).waitFor()
    await page.getByRole('button', { name: 'Rename Ben' }).click()
    await page.getByLabel('New name for Ben').fill('Benjamin')
    await page
      .getByRole('row', { name: /^Ben\b/ })
      .getByRole('button', { name: 'Save' })
      .click()
    await page.getByText('Benjamin is renamed.').waitFor()
    await page.getByRole('row', { name: /^Benjamin\b/ }).waitFor()
    await shoot('people')
  })

  test('rules: context rules, filters (an empty state here) and broadcast targets', async () => {
    await visit('rules', 'Rules')
    await page
      .getByRole('row', { name: /watch\.tonight/ })
      .getByText('groups')
      .waitFor()
    await page.getByText('No filter is installed').waitFor()
    await page.getByRole('row', { name: /family-group/ }).waitFor()
    await shoot('rules')
  })

  test('chat: a conversation through the web spore, and how to switch it on when it is off', async () => {
    await visit('chat', 'Chat')
    const input = page.getByLabel('Your message')
    // Usable once the stream said `ready`.
    await input.and(page.locator(':enabled')).waitFor()
    const conversation = page.getByRole('list', { name: 'Conversation with the bot' })
    await input.fill('/help tonight')
    await input.press('Enter')
    await conversation.getByText('/help tonight', { exact: true }).waitFor()
    await conversation.locator('.bubble-bot').first().waitFor()
    // The rule set above (groups only) holds here as on any channel: the bot says so.
    await input.fill('/tonight')
    await input.press('Enter')
    await conversation.getByText('/tonight only works in a group.').waitFor()
    await shoot('chat')
    const off = await client.send('/api/v1/spores/web/disable', { session: owner, method: 'POST' })
    expect(off.status).toBe(200)
    await page.reload()
    await page.getByText('Chat needs the web channel').waitFor()
    await shoot('chat-off')
    await page.getByRole('button', { name: 'Enable the web spore' }).click()
    await page.getByLabel('Your message').and(page.locator(':enabled')).waitFor()
  })

  test('logs and audit: the live tail and every audited change', async () => {
    await visit('logs', 'Logs and audit')
    const audit = page.getByRole('region', { name: 'Audit log' })
    // Each change in words: who did it, on which surface, what as a sentence; no method names or ids.
    await audit.getByText('added the source Home sporangium').first().waitFor()
    await audit.getByText('changed token of discord').first().waitFor()
    await audit.getByText('let watch.tonight run only in groups').first().waitFor()
    await audit.getByText('added family-group (chat) to the broadcast targets').first().waitFor()
    await audit.getByText('renamed Ben to Benjamin').first().waitFor()
    await audit.getByText('on the admin page (chat)').first().waitFor()
    expect(await audit.textContent()).not.toContain('sources.manage.addSource')
    expect(await audit.textContent()).not.toContain('plugins.configure.setSetting')
    // A change made now shows in the live tail.
    await client.send('/api/v1/spores/help/reload', { session: owner, method: 'POST' })
    await page.getByRole('region', { name: 'Live log' }).getByRole('row').nth(1).waitFor()
    await shoot('logs')
  })

  test('access: agent keys with how to connect, sessions, and the configuration download', async () => {
    await visit('access', 'Access')
    const agents = page.getByRole('region', { name: 'Agents (MCP clients)' })
    await agents.getByLabel('Label of the new key').fill('Claude Desktop')
    await agents.getByRole('button', { name: 'Create key' }).click()
    await agents.getByRole('status', { name: 'Copy this secret now.' }).waitFor()
    await agents.getByRole('row', { name: /Claude Desktop/ }).waitFor()
    // Where its confirmations are asked: people and conversations by name, never an id.
    const where = agents.getByLabel('Where Claude Desktop asks for confirmations')
    const choices = await where.locator('option').allTextContents()
    expect(choices).toContain('over chat, in direct messages with Ana (chat)')
    for (const choice of choices) expect(choice).not.toMatch(/dm-|session-|[0-9a-f]{8}-[0-9a-f]{4}/)
    await page.getByRole('region', { name: 'Your sessions' }).getByText('this one').waitFor()
    await shoot('access')
    // The download is the command line's export: the stored Discord token never in it.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download configuration' }).click(),
    ])
    expect(download.suggestedFilename()).toBe('mycelo-config.yaml')
    const text = await Bun.file((await download.path())!).text()
    expect(text).toContain('discord:')
    expect(text).not.toContain(DISCORD_TOKEN)
  })

  test('in French, from the language switch, and in the dark theme', async () => {
    await visit('overview', 'Overview')
    await page.getByLabel('Language').selectOption('fr')
    await page.getByRole('heading', { level: 1, name: 'Vue d’ensemble' }).waitFor()
    await page.getByRole('region', { name: 'À traiter' }).getByText('pager', { exact: true }).waitFor()
    await shoot('overview-fr')
    // Every other screen in French too, each photographed (docs/screenshots/<screen>-fr.png).
    const french: Record<string, string> = {
      spores: 'Spores',
      install: 'Installer',
      people: 'Personnes et rôles',
      rules: 'Règles',
      chat: 'Discussion',
      logs: 'Journaux et audit',
      access: 'Accès',
    }
    for (const [screen, heading] of Object.entries(french)) {
      await visit(screen, heading)
      await shoot(`${screen}-fr`)
    }
    await visit('overview', 'Vue d’ensemble')
    await page.getByLabel('Langue').selectOption('en')
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor()
    await page.getByRole('button', { name: 'Dark theme' }).click()
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark')
    await page.reload()
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor()
    // Remembered across a reload.
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark')
    await shoot('overview-dark')
  })

  test("a moderator's page: only the screens and buttons their role allows", async () => {
    // The same browser signs in again as Ana, whose only role is the moderator's.
    const { store, directory } = core.running.assembly!.runtime
    const ana = directory.resolve({ channel: 'chat', externalId: 'ana' }).id
    const secret = loginTickets(store).issue({ principalId: ana, form: 'link', now: Date.now() }).secret
    await page.evaluate(() => localStorage.setItem('mycelo.theme', 'light'))
    // Signing out ends the owner's session on the server and lands on the sign-in page.
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('heading', { level: 1, name: 'Sign in to Mycelo' }).waitFor()
    // From another document: the sign-in page reads its link's fragment when it loads.
    await page.goto('about:blank')
    await page.goto(`${url}/login#${secret}`)
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor()
    const nav = page.getByRole('navigation', { name: 'Screens' })
    expect(await nav.getByRole('link').allTextContents()).toEqual([
      'Overview',
      'Spores',
      'People and roles',
      'Chat',
      'Access',
    ])
    await visit('spores', 'Spores')
    await page
      .getByRole('row', { name: /^films/ })
      .getByText('live')
      .waitFor()
    // admin.plugins reads; admin.enable, admin.disable, admin.reload and admin.form are not theirs.
    expect(await page.getByRole('button', { name: /^(Enable|Disable|Reload|Settings of)/ }).count()).toBe(0)
    await shoot('moderator')
    // Her Access screen holds her sessions only: no agent keys, no configuration download.
    await visit('access', 'Access')
    await page.getByRole('region', { name: 'Your sessions' }).getByText('this one').waitFor()
    expect(await page.getByRole('region', { name: 'Agents (MCP clients)' }).count()).toBe(0)
    expect(await page.getByRole('link', { name: 'Download configuration' }).count()).toBe(0)
    await page.goto(`${url}/#/install`)
    await page.getByText('Your roles do not open this screen').waitFor()
  })
})
