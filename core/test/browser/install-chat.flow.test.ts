// The owner adds a loopback sporangium, installs a spore from it watching the progress bar,
// enables it, and runs its command from the Chat screen, where the reply comes back through the
// web channel — the whole path an operator takes without a terminal.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { LOOPBACK_SPORANGIA, serveProbeSporangium } from '../http/api/sporangium.ts'
import { scratchFolder } from '../store/scratch.ts'
import type { IndexServer } from '../support/index-server.ts'
import { realSpore } from '../support/real-spores.ts'
import { type Flow, type Person, startFlow } from './flow.ts'

const scratch = scratchFolder('install-flow')
let index: IndexServer
let flow: Flow
let owner: Person

/**
 * Every state the progress bar showed, recorded in the page as it changed, so no step can be missed.
 * Text, not a function: it runs in the page, whose globals this file's types do not know.
 */
const RECORD_PROGRESS = `
window.progressSeen = []
new MutationObserver(() => {
  for (const bar of document.querySelectorAll('progress')) {
    const state = bar.getAttribute('aria-label') + '|' + (bar.getAttribute('value') ?? 'indeterminate')
    if (window.progressSeen.at(-1) !== state) window.progressSeen.push(state)
  }
}).observe(document, { subtree: true, childList: true, attributes: true })
`

beforeAll(async () => {
  index = await serveProbeSporangium(scratch.path)
  flow = await startFlow({ spores: { web: realSpore('web') }, config: LOOPBACK_SPORANGIA })
  owner = await flow.person()
  await owner.context.addInitScript({ content: RECORD_PROGRESS })
  await owner.page.goto(flow.bot.loginLink)
  await owner.page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor()
})
afterAll(async () => {
  await flow?.stop()
  await index?.stop()
  scratch.remove()
})

describe('installing from a sporangium and using the spore from the Chat screen', () => {
  test('adds the source, installs with a progress bar, and enables what it installed', async () => {
    const { page, visit } = owner
    await visit('install', 'Install')
    await page.getByText('Add a source').click()
    const adding = page.getByRole('form', { name: 'Add a source' })
    await adding.getByLabel('Name').fill('Home sporangium')
    await adding.getByLabel('Address').fill(index.url)
    await adding.getByRole('button', { name: 'Add source' }).click()
    await page.getByText('Home sporangium is added.').waitFor()

    await page.getByRole('button', { name: 'What Home sporangium offers' }).click()
    const offer = page.getByRole('region', { name: 'What Home sporangium offers' })
    await offer.getByLabel('Version of probe').selectOption('1.0.0')
    await offer.getByRole('button', { name: 'Install probe' }).click()
    await page.getByText('probe is installed, disabled until you enable it.').waitFor()
    const seen = (await page.evaluate('window.progressSeen')) as string[]
    expect(seen.every((state) => state.startsWith('Installing probe|'))).toBe(true)
    // Starting (no length known yet), then counted up to its end: the archive's length was announced.
    expect(seen[0]).toBe('Installing probe|indeterminate')
    expect(seen.at(-1)).toBe('Installing probe|100')

    const installed = page.getByRole('region', { name: 'Installed from sources' })
    await installed.getByRole('button', { name: 'Enable probe' }).click()
    await page.getByText('probe is enabled.').waitFor()
    await installed.getByText('live').waitFor()
    expect(flow.bot.core.assembly.runtime.germination.byName.get('probe')?.state).toBe('live')
  })

  test("runs the new command from the Chat screen and reads the bot's reply", async () => {
    const { page, visit } = owner
    await visit('chat', 'Chat')
    const input = page.getByLabel('Your message')
    await expectEnabled(input)
    await input.fill('/hi')
    await input.press('Enter')
    const conversation = page.getByRole('list', { name: 'Conversation with the bot' })
    await conversation.getByText('/hi', { exact: true }).waitFor()
    await conversation.getByText('probe 1.0.0', { exact: true }).waitFor()
    // A reload keeps the conversation: the stream replays what the bot said.
    await page.reload()
    await page.getByRole('list', { name: 'Conversation with the bot' }).getByText('probe 1.0.0').waitFor()
    expect(owner.problems).toEqual([])
  })
})

async function expectEnabled(input: ReturnType<Person['page']['getByLabel']>): Promise<void> {
  // Enabled once the stream said `ready`.
  await input.and(owner.page.locator(':enabled')).waitFor()
}
