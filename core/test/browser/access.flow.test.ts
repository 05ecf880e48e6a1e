// The Access screen and its neighbours in a real Chromium against a real bot: the owner creates
// an agent key and reads its secret once, signs another of their sessions out, gives a group its
// own language on Rules, and finds a spore folder added to disk with "Look for new spores".
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { writeSpore } from '../boot/process.ts'
import { realSpore } from '../support/real-spores.ts'
import { codeIn, type Flow, type Person, startFlow } from './flow.ts'

let flow: Flow
let owner: Person

beforeAll(async () => {
  flow = await startFlow({ spores: { web: realSpore('web'), help: realSpore('help') } })
  // A group the bot has met, whose language the owner will choose.
  await flow.bot.core.say('hello', { group: { id: 'family', name: 'Family' } })
  owner = await flow.person()
  await owner.page.goto(flow.bot.loginLink)
  await owner.page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor()
})
afterAll(() => flow?.stop())

describe('the Access screen', () => {
  test('an agent key is created and its secret shown this once, never again', async () => {
    const { page, visit } = owner
    await visit('access', 'Access')
    const agents = page.getByRole('region', { name: 'Agents (MCP clients)' })
    await agents.getByText(`${flow.bot.url}/mcp`).waitFor()
    await agents.getByText('No agent key').waitFor()
    await agents.getByLabel('Label of the new key').fill('laptop')
    await agents.getByRole('button', { name: 'Create key' }).click()
    const shown = agents.getByRole('status', { name: 'Copy this secret now.' })
    const secret = (await shown.locator('.secret-value').textContent())!.trim()
    expect(secret.length).toBeGreaterThan(20)
    await agents.getByRole('row', { name: /laptop/ }).waitFor()
    // The key works on /mcp as a bearer token: the secret shown is the real one.
    const mcp = await fetch(`${flow.bot.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${secret}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    })
    expect(mcp.status).toBe(200)
    await agents.getByRole('button', { name: 'I have copied it' }).click()
    await page.reload()
    await page.getByRole('heading', { level: 1, name: 'Access' }).waitFor()
    await page.getByRole('row', { name: /laptop/ }).waitFor()
    expect(await page.content()).not.toContain(secret)
    // Confirmations move to chat in the family group, then the key is revoked.
    await page
      .getByLabel('Where laptop asks for confirmations')
      .selectOption({ label: 'over chat in Family (chat)' })
    await page.getByText('Where laptop asks for confirmations is saved.').waitFor()
    await page.getByRole('button', { name: 'Revoke laptop' }).click()
    await page.getByText('laptop is revoked: it opens nothing from now on.').waitFor()
    await page
      .getByRole('row', { name: /laptop/ })
      .getByText('revoked')
      .waitFor()
    expect(owner.problems).toEqual([])
  })

  test('another session of the owner is signed out from here; this one stays', async () => {
    const { page, visit } = owner
    const elsewhere = await flow.person()
    const [reply] = await flow.bot.core.ask('/web')
    await elsewhere.page.goto(`${flow.bot.url}/login#${codeIn(reply)}`)
    await elsewhere.page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor()
    // Read afresh: the page is still on Access from the test before, and lists only what it read then.
    await visit('overview', 'Overview')
    await visit('access', 'Access')
    const sessions = page.getByRole('region', { name: 'Your sessions' })
    await sessions.getByText('this one').waitFor()
    await sessions.getByRole('button', { name: /^Sign out session / }).click()
    await page.getByText('That session is signed out.').waitFor()
    // The other browser is sent to sign in again at its next request.
    await elsewhere.page.reload()
    await elsewhere.page.getByRole('heading', { level: 1, name: 'Sign in to Mycelo' }).waitFor()
    expect(await sessions.getByRole('row').count()).toBe(2)
    await elsewhere.context.close()
  })

  test('a group gets its own language on Rules, and the bot keeps it', async () => {
    const { page, visit } = owner
    await visit('rules', 'Rules')
    const conversations = page.getByRole('region', { name: 'Conversations and their language' })
    await conversations.getByLabel('Language of Family').selectOption('fr')
    await page.getByText('Family now reads the bot in Français.').waitFor()
    const runtime = flow.bot.core.assembly.runtime
    const family = (await runtime.conversations.list()).find((one) => one.conversationId === 'family')
    expect(family?.locale).toBe('fr')
  })

  test('a spore folder added to disk appears with "Look for new spores"', async () => {
    const { page, visit } = owner
    writeSpore(`${flow.bot.core.folder}/spores`, 'lantern', {
      'spore.yaml':
        'kind: enzyme\nname: lantern\nseptum: "^1.0"\ndescription: Lights the way\ncommands:\n  - { name: glow, description: command.glow, respond: glow }\n',
      'translations/en.yaml': 'command:\n  glow: Glows\nglow: A warm light\n',
      'src/index.ts': 'export default { create: () => ({ handlers: {} }) }\n',
    })
    await visit('spores', 'Spores')
    expect(await page.getByRole('row', { name: /^lantern/ }).count()).toBe(0)
    await page.getByRole('button', { name: 'Look for new spores' }).click()
    await page.getByText('Found lantern: disabled until you enable it.').waitFor()
    await page
      .getByRole('row', { name: /^lantern/ })
      .getByText('disabled')
      .waitFor()
    await page.getByRole('button', { name: 'Enable lantern' }).click()
    await page.getByText('lantern is enabled.').waitFor()
    await page
      .getByRole('row', { name: /^lantern/ })
      .getByText('live')
      .waitFor()
  })
})
