// The owner changes a person's role to moderator on the People screen; that person, signed in
// in a browser context of their own with the code the bot gave them in chat, sees a moderator's
// page: the screens and buttons their roles allow, and no others.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { realSpore } from '../support/real-spores.ts'
import { codeIn, type Flow, type Person, startFlow } from './flow.ts'

const MODERATOR = ['admin.web', 'admin.plugins', 'admin.health', 'admin.people', 'web.routes']

let flow: Flow
let owner: Person
let ana: Person

beforeAll(async () => {
  flow = await startFlow({
    spores: { web: realSpore('web'), help: realSpore('help') },
    roles: { member: ['admin.web'], moderator: MODERATOR },
    grants: { ana: ['member'] },
  })
  owner = await flow.person()
  await owner.page.goto(flow.bot.loginLink)
  await owner.page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor()
  ana = await flow.person()
  // The People screen names her as the bot met her: by her id on the chat channel.
  const [reply] = await flow.bot.core.ask('/web', { from: 'ana' })
  await ana.page.goto(`${flow.bot.url}/login#${codeIn(reply)}`)
  await ana.page.getByRole('navigation').getByRole('link', { name: 'Chat' }).waitFor()
})
afterAll(() => flow?.stop())

const navLinks = async (person: Person) =>
  (await person.page.getByRole('navigation').getByRole('link').allTextContents()).map((text) => text.trim())

describe("a person's role, changed from the page, shapes the page they see", () => {
  test('as a member Ana sees the Chat screen and her own Access only', async () => {
    expect(await navLinks(ana)).toEqual(['Chat', 'Access'])
  })

  test('the owner grants Ana moderator and takes member away, on the People screen', async () => {
    const { page, visit } = owner
    await visit('people', 'People and roles')
    const row = page.getByRole('row', { name: /^ana\b/ })
    await row.getByLabel('Role to grant to ana').selectOption('moderator')
    await row.getByRole('button', { name: 'Grant the role to ana' }).click()
    await page.getByText('ana now holds moderator.').waitFor()
    await row.getByRole('button', { name: 'Revoke member from ana' }).click()
    await page.getByText('ana no longer holds member.').waitFor()
    const runtime = flow.bot.core.assembly.runtime
    const id = runtime.directory.resolve({ channel: 'chat', externalId: 'ana' }).id
    expect(runtime.directory.load(id)?.principal.roles).toEqual(['moderator'])
  })

  test("Ana's own browser shows a moderator's page: fewer screens, no switches", async () => {
    const { page, visit } = ana
    await page.reload()
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor()
    expect(await navLinks(ana)).toEqual(['Overview', 'Spores', 'People and roles', 'Chat', 'Access'])
    expect((await navLinks(owner)).length).toBe(8)

    // Spores: she sees each one and its state, and no button that would change one.
    await visit('spores', 'Spores')
    await page.getByRole('row', { name: /help/ }).getByText('live').waitFor()
    for (const action of ['Disable help', 'Reload help', 'Settings of help']) {
      expect(await page.getByRole('button', { name: action }).count()).toBe(0)
    }
    await owner.visit('spores', 'Spores')
    await owner.page.getByRole('button', { name: 'Disable help' }).waitFor()

    // People: she reads who holds what, and cannot grant or revoke.
    await visit('people', 'People and roles')
    await page
      .getByRole('row', { name: /^ana\b/ })
      .getByText('moderator')
      .waitFor()
    expect(await page.getByRole('button', { name: /^Grant the role to / }).count()).toBe(0)
    expect(await page.getByRole('button', { name: /^Revoke / }).count()).toBe(0)

    // Access: her own sessions, and no agents or configuration, which her roles do not cover.
    await visit('access', 'Access')
    await page.getByRole('region', { name: 'Your sessions' }).getByText('this one').waitFor()
    expect(await page.getByRole('region', { name: 'Agents (MCP clients)' }).count()).toBe(0)
    expect(await page.getByRole('region', { name: 'Configuration' }).count()).toBe(0)

    // A screen she may not use says so, even when opened by its address.
    await page.goto(`${flow.bot.url}/#/install`)
    await page.getByText('Your roles do not open this screen').waitFor()
  })

  test('Ana chats as herself: the bot answers with her roles', async () => {
    const { page, visit } = ana
    await visit('chat', 'Chat')
    const input = page.getByLabel('Your message')
    await input.and(page.locator(':enabled')).waitFor()
    // Not one of her commands: refused as it would be on any channel.
    await input.fill('/enable help')
    await input.press('Enter')
    const conversation = page.getByRole('list', { name: 'Conversation with the bot' })
    await conversation.getByText('not allowed', { exact: false }).waitFor()
    expect(flow.bot.core.assembly.runtime.germination.byName.get('help')?.state).toBe('live')
    expect(ana.problems).toEqual([])
  })
})
