import { describe, expect, it } from 'bun:test'
import { FakeMycelium } from './fake-mycelium.ts'
import { run } from './harness.ts'

describe('admin: conversations and context rules', () => {
  it('lists the conversations with kind, label, locale and when they were last seen', async () => {
    const mycelium = new FakeMycelium()
    expect((await run(mycelium, 'conversations')).reply).toBe('The bot has seen no conversation yet.')
    const lastSeen = new Date(2025, 0, 15, 14, 5)
    mycelium.conversations = [
      { channel: 'console', conversationId: 'c1', kind: 'dm', firstSeen: lastSeen, lastSeen },
      {
        channel: 'discord',
        conversationId: '42',
        kind: 'group',
        label: 'Movie night',
        locale: 'fr',
        firstSeen: lastSeen,
        lastSeen,
      },
    ]
    const lines = (await run(mycelium, 'conversations')).reply.split('\n')
    expect(lines[0]).toBe('2 conversations:')
    expect(lines[1]).toStartWith('console c1 — direct — last seen Jan 15, 2025 ')
    expect(lines[2]).toStartWith('discord 42 — group “Movie night” [fr] — last seen Jan 15, 2025 ')
    const french = (await run(mycelium, 'conversations', { locale: 'fr' })).reply.split('\n')
    expect(french[1]).toStartWith('console c1 — privée — vue pour la dernière fois le 15 janv. 2025 à 14:05')
  })

  it('sets, lists and clears context rules', async () => {
    const mycelium = new FakeMycelium()
    const rule = (command: string, where: string) => run(mycelium, 'rule', { args: { command, where } })
    expect((await run(mycelium, 'rules')).reply).toBe('There is no rule: every command runs everywhere.')
    expect((await rule('movies.add', 'DM')).reply).toBe('movies.add now runs in direct messages only.')
    expect((await rule('admin.broadcast', 'both')).reply).toBe(
      'admin.broadcast now runs in direct messages and groups.',
    )
    expect(mycelium.rules.get('movies.add')).toEqual(['dm'])
    expect(mycelium.rules.get('admin.broadcast')).toEqual(['dm', 'group'])
    expect((await run(mycelium, 'rules')).reply).toBe(
      [
        'Where commands may run:',
        'movies.add: direct messages only',
        'admin.broadcast: direct messages and groups',
      ].join('\n'),
    )
    expect((await rule('movies.add', 'clear')).reply).toBe('movies.add runs everywhere again.')
    expect(mycelium.rules.has('movies.add')).toBe(false)
  })

  it('answers the usage sentence for a place it does not know, and renders a refusal', async () => {
    const mycelium = new FakeMycelium()
    expect(
      (await run(mycelium, 'rule', { args: { command: 'movies.add', where: 'everywhere' } })).reply,
    ).toBe('Usage: /rule <spore.command> dm|group|both|clear')
    expect(mycelium.rules.size).toBe(0)
    expect((await run(mycelium, 'rule', { args: { command: 'add', where: 'group' } })).reply).toBe(
      'There is no command add.',
    )
  })
})

describe('admin: inhibitor channels', () => {
  it('shows where an inhibitor watches, confines it, and frees it with all', async () => {
    const mycelium = new FakeMycelium()
    const confine = (args: Record<string, string>) => run(mycelium, 'confine', { args })
    expect((await confine({ inhibitor: 'quiet-hours' })).reply).toBe('quiet-hours watches every channel.')
    expect((await confine({ inhibitor: 'quiet-hours', channels: 'discord signal' })).reply).toBe(
      'quiet-hours watches only discord, signal.',
    )
    expect(mycelium.confinement.get('quiet-hours')).toEqual(['discord', 'signal'])
    expect((await confine({ inhibitor: 'quiet-hours' })).reply).toBe(
      'quiet-hours watches only discord, signal.',
    )
    expect((await confine({ inhibitor: 'quiet-hours', channels: 'all' })).reply).toBe(
      'quiet-hours watches every channel.',
    )
    expect(mycelium.confinement.get('quiet-hours')).toEqual([])
    expect((await confine({ inhibitor: 'ghost', channels: 'discord' })).reply).toBe(
      'There is no filter called ghost.',
    )
    expect((await confine({ inhibitor: 'ghost' })).reply).toBe('There is no filter called ghost.')
  })
})

describe('admin: broadcast', () => {
  it('adds, lists and removes broadcast targets', async () => {
    const mycelium = new FakeMycelium()
    const target = (command: string, conversation: string) =>
      run(mycelium, command, { args: { channel: 'discord', conversation } })
    expect((await run(mycelium, 'targets')).reply).toBe(
      'There is no broadcast target; add one with /target-add.',
    )
    expect((await target('target-add', '42')).reply).toBe('discord 42 is a broadcast target.')
    await target('target-add', '43')
    expect((await target('target-add', '42')).reply).toBe('discord 42 is a target already.')
    expect((await run(mycelium, 'targets')).reply).toBe('Broadcast targets:\ndiscord 42\ndiscord 43')
    expect((await target('target-remove', '42')).reply).toBe('discord 42 is no longer a broadcast target.')
    expect((await target('target-remove', '42')).reply).toBe('discord 42 is not a target.')
    expect(mycelium.targets).toEqual([{ channel: 'discord', conversationId: '43' }])
  })

  it('sends to every target and reports each result', async () => {
    const mycelium = new FakeMycelium()
    expect(
      (await run(mycelium, 'broadcast', { args: { text: 'hello' }, typed: '/admin.broadcast' })).reply,
    ).toBe('There is no broadcast target; add one with /admin.target-add.')
    mycelium.targets.push(
      { channel: 'discord', conversationId: '42' },
      { channel: 'signal', conversationId: 'g7' },
    )
    mycelium.unreachable.add('g7')
    expect((await run(mycelium, 'broadcast', { args: { text: 'Movie night at 8!' } })).reply).toBe(
      ['Sent to 1 of 2 targets:', 'discord 42: sent', 'signal g7: failed — unreachable'].join('\n'),
    )
    expect(mycelium.sent).toEqual([
      { target: { channel: 'discord', conversationId: '42' }, content: { text: 'Movie night at 8!' } },
    ])
  })
})
