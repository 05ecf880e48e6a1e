// The owner signs in through the one-time link printed at start and configures a spore through
// the settings form drawn from its published schema; the bot stores what was typed.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { realSpore } from '../support/real-spores.ts'
import { type Flow, type Person, startFlow } from './flow.ts'

let flow: Flow
let owner: Person

beforeAll(async () => {
  flow = await startFlow({ spores: { help: realSpore('help') } })
  owner = await flow.person()
})
afterAll(() => flow?.stop())

describe('signing in and configuring a spore, in a browser', () => {
  test('the link printed at start signs the owner in, once', async () => {
    const { page } = owner
    await page.goto(flow.bot.loginLink)
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor()
    // The whole navigation: the owner's roles cover every screen.
    const nav = page.getByRole('navigation')
    for (const screen of [
      'Overview',
      'Spores',
      'Install',
      'People and roles',
      'Rules',
      'Chat',
      'Logs and audit',
    ]) {
      await nav.getByRole('link', { name: screen, exact: true }).waitFor()
    }
    // Used once: the same link in another browser is refused.
    const other = await flow.person()
    await other.page.goto(flow.bot.loginLink)
    await other.page.getByText('not valid', { exact: false }).waitFor()
    await other.context.close()
    expect(owner.problems).toEqual([])
  })

  test("a spore's settings form saves what is typed, checked by the bot as chat checks it", async () => {
    const { page, visit } = owner
    await visit('spores', 'Spores')
    await page.getByRole('button', { name: 'Settings of help' }).click()
    const form = page.getByRole('region', { name: 'Settings of help' })
    const prefix = form.getByRole('textbox').first()
    await prefix.fill('!')
    await form.getByRole('button', { name: 'Save settings' }).click()
    await page.getByText('Settings of help saved.').waitFor()
    expect(flow.bot.core.assembly.runtime.plugins.settingsOf('help')).toEqual({ prefix: '!' })
    expect(owner.problems).toEqual([])
    // A value the schema refuses is refused in the page, and nothing changes.
    await prefix.fill('two words')
    await form.getByRole('button', { name: 'Save settings' }).click()
    await form.locator('.error-detail, .text-danger, [role="alert"]').first().waitFor()
    expect(flow.bot.core.assembly.runtime.plugins.settingsOf('help')).toEqual({ prefix: '!' })
  })
})
