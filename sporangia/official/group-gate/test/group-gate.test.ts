import { describe, expect, it } from 'bun:test'
import { inhibitorChecks } from '@mycelo/septum/conformance'
import module from '../src/index.ts'
import { Membership } from '../src/membership.ts'
import { files, type GateWorld, gateBot } from './harness.ts'

const CONFIG = { groups: { signal: ['book-club', 'family'] } }
const WORLD: GateWorld = { members: { 'signal/book-club': ['alice'], 'signal/family': ['bob'] } }

const from = (externalId: string, channel = 'signal') => ({
  channel,
  sender: { channel, externalId },
  text: '/help',
})

async function verdictFor(message: ReturnType<typeof from>, world = WORLD, locale = 'en') {
  const bot = await gateBot(CONFIG, { ...world, locale })
  try {
    return await bot.inspect(message.text, { person: message.sender.externalId, channel: message.channel })
  } finally {
    await bot.stop()
  }
}

describe('group-gate', () => {
  it('conforms to the Inhibitor contract', async () => {
    const failures = await inhibitorChecks({
      name: 'group-gate',
      manifest: files.manifest,
      module,
      config: CONFIG,
      invalidConfig: { groups: {} },
      context: (await gateBot(CONFIG, WORLD)).inhibitorContext,
      expectations: [
        { label: 'a member of the first group', message: from('alice'), allow: true },
        { label: 'a member of the second group', message: from('bob'), allow: true },
        { label: 'a stranger', message: from('mallory'), allow: false },
        { label: 'a channel with no groups', message: from('alice', 'discord'), allow: false },
      ],
    })
    expect(failures).toEqual([])
  })

  it('has the same keys in English and French', () => {
    expect(files.keysOf('fr')).toEqual(files.keysOf('en'))
  })

  it('says why it refused, for the operator, in the configured language', async () => {
    expect(await verdictFor(from('mallory'))).toEqual({
      allow: false,
      reason: 'mallory on signal is in none of the allowed groups (book-club, family)',
    })
    expect(await verdictFor(from('alice', 'discord'), WORLD, 'fr')).toEqual({
      allow: false,
      reason: 'discord n’a aucun groupe configuré dans group-gate : personne ne peut y parler au bot',
    })
  })

  it('refuses when a channel cannot tell who is in a group, unless another group vouches', async () => {
    const blind = { members: { 'signal/family': ['bob'] } }
    expect(await verdictFor(from('alice'), blind)).toEqual({
      allow: false,
      reason: 'signal could not say who is in book-club, family, so alice is refused',
    })
    expect(await verdictFor(from('bob'), blind)).toEqual({ allow: true })
  })

  it('refuses to start on a channel that cannot list members', async () => {
    await expect(gateBot(CONFIG, { ...WORLD, capable: ['discord'] })).rejects.toThrow(
      'signal has no group_membership',
    )
  })

  it('names what is wrong with its settings', () => {
    const refused = module.configSchema.safeParse({ groups: { Signal: [] } })
    expect(refused.success).toBe(false)
    const paths = refused.success ? [] : refused.error.issues.map((issue) => issue.path.join('.'))
    expect(paths).toContain('groups.Signal')
    const empty = module.configSchema.safeParse({ groups: {} })
    expect(empty.success ? [] : empty.error.issues.map((issue) => issue.messageKey)).toEqual([
      'settings.groups.empty',
    ])
  })
})

describe('membership answers', () => {
  it('asks each group once per period, and again once it has passed', async () => {
    let now = 0
    const asked: string[] = []
    const membership = new Membership({
      ttlMs: 1000,
      now: () => now,
      lookup: async (channel, group) => {
        asked.push(group)
        return [{ channel, externalId: 'alice' }]
      },
    })
    expect(await membership.standing('signal', ['a'], 'alice')).toBe('member')
    expect(await membership.standing('signal', ['a'], 'bob')).toBe('stranger')
    expect(asked).toEqual(['a'])
    now = 1500
    expect(await membership.standing('signal', ['a'], 'alice')).toBe('member')
    expect(asked).toEqual(['a', 'a'])
  })

  it('never keeps a list that could not be read, and ignores members of another channel', async () => {
    let answer: 'none' | 'list' = 'none'
    const membership = new Membership({
      ttlMs: 60_000,
      lookup: async () =>
        answer === 'none'
          ? null
          : [
              { channel: 'discord', externalId: 'alice' },
              { channel: 'signal', externalId: 'bob' },
            ],
    })
    expect(await membership.standing('signal', ['g'], 'bob')).toBe('unknown')
    answer = 'list'
    expect(await membership.standing('signal', ['g'], 'bob')).toBe('member')
    expect(await membership.standing('signal', ['g'], 'alice')).toBe('stranger')
  })

  it('lets a failing lookup throw, so an enforcing gate refuses everything', async () => {
    const membership = new Membership({
      ttlMs: 0,
      lookup: () => Promise.reject(new Error('signal-cli is down')),
    })
    await expect(membership.standing('signal', ['g'], 'bob')).rejects.toThrow('signal-cli is down')
  })
})
