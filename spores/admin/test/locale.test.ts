import { describe, expect, it } from 'bun:test'
import { FakeMycelium } from './fake-mycelium.ts'
import { run } from './harness.ts'

describe('admin: languages', () => {
  it('lists the available languages when none is given', async () => {
    expect((await run(new FakeMycelium(), 'lang')).reply).toBe(
      'Available languages: English (en), français (fr). Usage: /lang <locale>',
    )
    expect((await run(new FakeMycelium(), 'lang', { locale: 'fr' })).reply).toBe(
      'Langues disponibles : English (en), français (fr). Utilisation : /lang <langue>',
    )
  })

  it('says a language is not available, and lists those that are', async () => {
    const mycelium = new FakeMycelium()
    expect((await run(mycelium, 'lang', { args: { locale: 'de' } })).reply).toBe(
      'de is not an available language.\nAvailable languages: English (en), français (fr). Usage: /lang <locale>',
    )
    expect(mycelium.people.get('p-owner')?.locale).toBeUndefined()
  })

  it('sets the reader’s own language and confirms in it', async () => {
    const mycelium = new FakeMycelium()
    expect((await run(mycelium, 'lang', { args: { locale: 'FR' } })).reply).toBe(
      'Je vous répondrai en français (fr).',
    )
    expect(mycelium.people.get('p-owner')?.locale).toBe('fr')
    mycelium.people.delete('p-owner')
    expect((await run(mycelium, 'lang', { args: { locale: 'en' } })).reply).toBe(
      'No person has the id p-owner.',
    )
  })

  it('sets a group conversation’s language, and only in a group', async () => {
    const mycelium = new FakeMycelium()
    expect(
      (await run(mycelium, 'lang-group', { args: { locale: 'fr' }, typed: '/Admin.Lang-Group' })).reply,
    ).toBe('This only works in a group conversation; for your own language, use /Admin.lang.')
    expect(mycelium.conversationLocales.size).toBe(0)
    expect((await run(mycelium, 'lang-group', { args: { locale: 'fr' }, group: true })).reply).toBe(
      'The bot has not seen console c1.',
    )
    const seen = new Date()
    mycelium.conversations = [
      { channel: 'console', conversationId: 'c1', kind: 'group', firstSeen: seen, lastSeen: seen },
    ]
    expect((await run(mycelium, 'lang-group', { group: true })).reply).toBe(
      'Available languages: English (en), français (fr). Usage: /lang-group <locale>',
    )
    expect((await run(mycelium, 'lang-group', { args: { locale: 'fr' }, group: true })).reply).toBe(
      'Je répondrai en français (fr) dans cette conversation.',
    )
    expect(mycelium.conversationLocales.get('console c1')).toBe('fr')
  })
})
