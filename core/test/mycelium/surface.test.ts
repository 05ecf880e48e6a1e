import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { isRefusalError, type Mycelium, RefusalError, SCOPE_METHODS } from '@mycelo/septum'
import { garden, SERVED_SCOPES } from './garden.ts'
import { type Bot, startBot } from './harness.ts'

let bot: Bot

beforeAll(async () => {
  bot = await startBot(garden())
})

afterAll(async () => {
  await bot.stop()
})

const methodsOf = (scopes: readonly (keyof typeof SCOPE_METHODS)[]) =>
  scopes.flatMap((scope) => [...SCOPE_METHODS[scope]]).sort()

describe("ctx.rhiza('mycelium')", () => {
  it('mounts exactly the methods of every granted scope', () => {
    expect(Object.keys(bot.surface('steward')).sort()).toEqual(methodsOf(SERVED_SCOPES))
  })

  it("leaves an ungranted scope's methods absent rather than rejecting", () => {
    const reader = bot.surface<object>('reader')
    expect(Object.keys(reader).sort()).toEqual(methodsOf(['plugins.read', 'locale.manage', 'sources.manage']))
    expect('enable' in reader).toBe(false)
    expect('settings' in reader).toBe(false)
    expect('send' in reader).toBe(false)
    expect('available' in reader).toBe(false)
  })

  it('mounts sources.manage when granted, and only then', () => {
    const reader = bot.surface<Record<string, unknown>>('reader')
    const films = bot.surface<object>('films')
    for (const method of SCOPE_METHODS['sources.manage']) {
      expect(typeof reader[method]).toBe('function')
      expect(method in films).toBe(false)
    }
  })

  it('answers an empty object to a spore with no mycelium requirement', () => {
    expect(bot.surface('films')).toEqual({})
    expect(Object.keys(bot.surface('films'))).toEqual([])
  })

  it('hands a spore the same surface every time it asks', () => {
    const steward = bot.germination.byName.get('steward')!
    expect(bot.runtime.mycelium(steward)).toBe(bot.surface('steward'))
    expect(bot.runtime.mycelium(steward)).toBe(bot.runtime.mycelium(steward))
  })

  it('cannot be altered by the spore holding it', () => {
    const surface = bot.surface<Record<string, unknown>>('reader')
    expect(Object.isFrozen(surface)).toBe(true)
    expect(() => {
      surface.enable = () => Promise.resolve({ ok: true })
    }).toThrow()
  })

  it('answers listPlugins() and availableLocales() synchronously', () => {
    const reader = bot.surface<Mycelium<'plugins.read' | 'locale.manage'>>('reader')
    const plugins = reader.listPlugins()
    const locales = reader.availableLocales()
    expect(plugins).not.toBeInstanceOf(Promise)
    expect(Array.isArray(plugins)).toBe(true)
    expect(plugins.length).toBeGreaterThan(0)
    expect(locales).not.toBeInstanceOf(Promise)
    expect(locales).toEqual(['en', 'fr'])
  })

  it('answers every other method with a promise', async () => {
    const surface = bot.surface<Record<string, (...args: unknown[]) => unknown>>('steward')
    const synchronous = new Set(['listPlugins', 'availableLocales'])
    // Names nobody holds, so every mutator refuses and nothing changes.
    const nobody = 'no-such-thing'
    const argumentsFor: Record<string, unknown[]> = {
      send: [{ channel: nobody, conversationId: nobody }, { text: 'x' }],
      broadcast: [{ text: 'nobody listens' }],
      setContextRule: [nobody, ['dm']],
      confineInhibitor: [nobody, []],
      setInhibitorChannels: [nobody, []],
      addBroadcastTarget: [{ channel: nobody, conversationId: nobody }],
      removeBroadcastTarget: [{ channel: nobody, conversationId: nobody }],
      createRole: ['', []],
      setRoleCommands: [nobody, []],
      setConversationLocale: [nobody, nobody, 'en'],
      findByIdentity: [nobody, nobody],
    }
    for (const method of Object.keys(surface)) {
      if (synchronous.has(method)) continue
      const answer = surface[method]!(...(argumentsFor[method] ?? [nobody, nobody, nobody]))
      expect({ method, promise: answer instanceof Promise }).toEqual({ method, promise: true })
      await (answer as Promise<unknown>).catch(() => undefined)
    }
  })

  it('resolves a refusal from the eleven Outcome methods, and rejects one from the scopes that write restrictions and locales', async () => {
    const surface = bot.surface<Record<string, (...args: unknown[]) => Promise<unknown>>>('steward')
    // Names nobody holds, so every call below is refused and nothing changes.
    const nobody = 'no-such-thing'
    const resolving: Record<string, unknown[]> = {
      markReviewed: [nobody],
      setDisplayName: [nobody, 'Nobody'],
      assignRole: [nobody, nobody],
      revokeRole: [nobody, nobody],
      createRole: ['', []],
      setRoleCommands: [nobody, []],
      deleteRole: [nobody],
      enable: [nobody],
      disable: [nobody],
      settings: [nobody],
      setSetting: [nobody, 'key', 1],
      unsetSetting: [nobody, 'key'],
    }
    for (const [method, args] of Object.entries(resolving)) {
      const answer = await surface[method]!(...args)
      expect({ method, ok: (answer as { ok: boolean }).ok }).toEqual({ method, ok: false })
    }
    const rejecting: Record<string, unknown[]> = {
      setContextRule: [nobody, ['dm']],
      clearContextRule: [nobody],
      inhibitorChannels: [nobody],
      setInhibitorChannels: [nobody, []],
      confineInhibitor: [nobody, []],
      addBroadcastTarget: [{ channel: nobody, conversationId: nobody }],
      removeBroadcastTarget: [{ channel: nobody, conversationId: nobody }],
      setPrincipalLocale: [nobody, 'en'],
      setConversationLocale: [nobody, nobody, 'en'],
    }
    for (const [method, args] of Object.entries(rejecting)) {
      const error = await surface[method]!(...args).then(
        () => undefined,
        (rejection: unknown) => rejection,
      )
      expect({ method, refused: isRefusalError(error) }).toEqual({ method, refused: true })
      expect(error).toBeInstanceOf(RefusalError)
    }
  })

  it('keeps working when a method is detached from its surface', async () => {
    const { getPrincipal } = bot.surface<Mycelium<'principals.read'>>('steward')
    expect(await getPrincipal('nobody')).toBeNull()
  })
})
