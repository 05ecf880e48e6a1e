// One reader whose language is French meets a spore whose settings are incomplete (discord, no
// token) on each surface — chat's /spores, the MCP execute tool and the command line — and reads
// both the setting problem and the spore's description in French, with no validator's or stack's
// text. The page's Spores screen is read in French by core/test/browser/phone-width.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { botMcp, createMcp } from '../../agent/mcp/index.ts'
import { localeManage } from '../../mycelium/locale.ts'
import { principalsRead } from '../../mycelium/principals.ts'
import { createAgentKey } from '../../store/agent-keys.ts'
import { ROOT, runCli } from '../boot/process.ts'
import { connect, serveMcp } from '../mcp/connect.ts'
import { type Bot, dmWith, probeHypha, shippedSpore, startBot } from '../mycelium/harness.ts'
import { scratchFolder } from '../store/scratch.ts'

const DESCRIPTION = 'Discord comme canal — salons de serveur, fils et messages privés, par un compte de bot'
// French puts a no-break space before a colon: \s matches it.
const PROBLEM = /la configuration est incomplète\s:\stoken\s:\sObligatoire \(attendu\s:\sdu texte\)/
/** What a validator or a stack would leave in a person's text. */
const INTERNALS = [/Invalid input/i, /expected string/i, /received undefined/i, /\n\s+at /, /ZodError/]

function expectNoInternals(text: string): void {
  for (const internal of INTERNALS) expect(text).not.toMatch(internal)
}

let bot: Bot
let boss: string
beforeAll(async () => {
  bot = await startBot({
    spores: { chat: probeHypha('chat'), admin: shippedSpore('admin'), discord: shippedSpore('discord') },
  })
  await bot.emit('chat', 'hello', { from: 'boss' })
  boss = (await principalsRead(bot.runtime).findByIdentity('chat', 'boss'))!.id
  await localeManage(bot.runtime).setPrincipalLocale(boss, 'fr')
})
afterAll(() => bot?.stop())

describe('a French reader, surface by surface', () => {
  it("chat's /spores", async () => {
    bot.takeSent('chat', dmWith('boss'))
    await bot.emit('chat', '/spores', { from: 'boss' })
    const reply = bot.takeSent('chat', dmWith('boss')).join('\n')
    expect(reply).toMatch(/discord \(canal\) — désactivée/)
    expect(reply).toMatch(PROBLEM)
    expect(reply).toContain(DESCRIPTION)
    expectNoInternals(reply)
  })

  it('an agent over MCP, for that person', async () => {
    const endpoint = serveMcp(createMcp(botMcp(bot.runtime)))
    const key = createAgentKey(bot.store, { label: 'desktop', principalId: boss }).secret
    const agent = await connect(endpoint.url, { key })
    try {
      const answer = await agent.execute(
        "return (await env.plugins.read.listPlugins({})).find((p) => p.name === 'discord')",
      )
      if (!answer.ok) throw new Error(answer.text)
      const discord = answer.value as { description?: string; reason?: string }
      expect(discord.description).toBe(DESCRIPTION)
      expect(discord.reason).toMatch(PROBLEM)
      expectNoInternals(JSON.stringify(discord))
    } finally {
      await agent.close()
      await endpoint.stop()
    }
  })
})

describe('the command line, for an operator whose bot speaks French', () => {
  const scratch = scratchFolder('french-cli')
  afterAll(() => scratch.remove())

  async function cli(...words: string[]): Promise<string> {
    const config = join(scratch.path, 'mycelo.yaml')
    writeFileSync(
      config,
      `spores: [${JSON.stringify(join(ROOT, 'spores'))}]\ndatabase: data/mycelo.db\nhttp: { enabled: false }\ndefaultLocale: fr\n`,
    )
    const { stdout, stderr } = await runCli(words, config)
    return `${stdout}${stderr}`
  }

  // The command line starts a process of its own, and offered packs the carried strains: given time.
  it('status words the setting problem in French', async () => {
    const status = await cli('status')
    expect(status).toContain('Rapport de germination')
    expect(status).toMatch(PROBLEM)
    expectNoInternals(status)
  }, 60_000)

  it('offered describes the official spores in French, from their own catalogues', async () => {
    const offered = await cli('offered', 'official')
    expect(offered).toContain(
      'reminders (commandes) — Des rappels à votre propre fuseau horaire, une fois ou chaque semaine, dits là où vous les avez demandés',
    )
    expect(offered).not.toContain('spore.description')
    expectNoInternals(offered)
  }, 60_000)
})
