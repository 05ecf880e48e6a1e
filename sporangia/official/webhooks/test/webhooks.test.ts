import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { enzymeChecks } from '@mycelo/septum/conformance'
import { type TestBot, testBot } from '@mycelo/septum/testing'
import { sporeFiles } from '../../kit/catalogues.ts'
import module, { type WebhooksConfig } from '../src/index.ts'
import { fillTemplate, MAX_TEXT, readGitHub } from '../src/render.ts'
import { pushPayload, releasePayload } from './payloads.ts'

const files = sporeFiles(join(import.meta.dir, '..'))
const SETTINGS = { secret: 'a-long-shared-secret', targets: [{ channel: 'chat', conversationId: 'ops' }] }

let bot: TestBot
beforeAll(async () => {
  bot = await testBot({ spore: { from: import.meta.url, module, settings: SETTINGS } })
})
afterAll(() => bot.stop())

const say = (wording: { key: string; params: Readonly<Record<string, unknown>> }, locale = 'en') =>
  files.translator(locale)(wording.key, wording.params)

describe('webhooks enzyme', () => {
  it('conforms to the Enzyme contract, catalogues and routes included', async () => {
    const failures = await enzymeChecks({
      name: 'webhooks',
      manifest: files.manifest,
      module,
      catalogs: files.catalogs,
      config: SETTINGS,
      invalidConfig: { secret: 'short', targets: [] },
      context: () => bot.context<WebhooksConfig>(),
    })
    expect(failures).toEqual([])
  })

  it('has the same keys in English and French', () => {
    expect(files.keysOf('fr')).toEqual(files.keysOf('en'))
  })

  it('tells the operator where to point senders', async () => {
    const replies = await bot.say('/webhooks', { locale: 'fr' })
    expect(replies[0]).toContain('/spores/webhooks/github')
    expect(replies[0]).toContain('Une conversation les reçoit : chat/ops.')
    expect(replies).toHaveLength(1)
  })

  it('names what is wrong with its settings', () => {
    const refused = module.configSchema.safeParse({ secret: 'short', targets: [{ channel: 'chat' }] })
    expect(refused.success ? [] : refused.error.issues.map((issue) => issue.path.join('.'))).toEqual([
      'secret',
      'targets.0.conversationId',
    ])
  })
})

describe('reading GitHub deliveries', () => {
  it('words a push with its first commits and counts the rest', () => {
    const reading = readGitHub('push', pushPayload(7))
    if (reading.kind !== 'relay') throw new Error(reading.kind)
    expect([reading.wording, ...reading.lines].map((line) => say(line))).toEqual([
      'octocat pushed 7 commits to navino16/mycelo (main) https://github.com/navino16/mycelo/compare/000000000000...ffffffffffff',
      '• 0abcdef Change number 1 — Mona Lisa',
      '• 1abcdef Change number 2 — Mona Lisa',
      '• 2abcdef Change number 3 — Mona Lisa',
      '• 3abcdef Change number 4 — Mona Lisa',
      '• 4abcdef Change number 5 — Mona Lisa',
      '…and 2 more',
    ])
    const single = readGitHub('push', pushPayload(1))
    if (single.kind !== 'relay') throw new Error(single.kind)
    expect(say(single.wording, 'fr')).toStartWith('octocat a poussé un commit sur navino16/mycelo (main)')
  })

  it('relays a published release or pre-release and ignores drafts, edits and other events', () => {
    const published = readGitHub('release', releasePayload('published'))
    if (published.kind !== 'relay') throw new Error(published.kind)
    expect(say(published.wording)).toBe(
      'navino16/mycelo released Storage and schedules (v1.1.0): https://github.com/navino16/mycelo/releases/tag/v1.1.0',
    )
    const pre = readGitHub('release', releasePayload('published', true))
    if (pre.kind !== 'relay') throw new Error(pre.kind)
    expect(say(pre.wording, 'fr')).toStartWith('navino16/mycelo a publié la préversion Storage and schedules')
    expect(readGitHub('release', releasePayload('edited'))).toEqual({
      kind: 'ignored',
      event: 'release.edited',
    })
    expect(readGitHub('ping', { zen: 'Design for failure.' })).toEqual({ kind: 'ignored', event: 'ping' })
  })

  it('refuses a payload that is not what GitHub sends for its event', () => {
    expect(readGitHub('push', { ref: 'refs/heads/main' }).kind).toBe('malformed')
    expect(readGitHub('release', { action: 'published' }).kind).toBe('malformed')
  })
})

describe('the generic template', () => {
  it('fills nested fields, leaves missing ones empty and writes objects as JSON', () => {
    const data = { alert: { name: 'disk', level: 3 }, host: 'nas', tags: ['a', 'b'] }
    expect(
      fillTemplate('{{alert.name}} on {{ host }} (level {{alert.level}}){{missing}} {{tags}}', data),
    ).toBe('disk on nas (level 3) ["a","b"]')
    expect(fillTemplate('{{tags.1}}', data)).toBe('b')
    expect(fillTemplate('{{constructor}}', data)).toBe('')
  })

  it('cuts a long result to a chat message', () => {
    const text = fillTemplate('{{text}}', { text: 'x'.repeat(MAX_TEXT * 2) })
    expect(text.length).toBe(MAX_TEXT)
    expect(text.endsWith('…')).toBe(true)
  })
})
