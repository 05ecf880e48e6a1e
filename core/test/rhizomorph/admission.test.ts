import { afterEach, describe, expect, it } from 'bun:test'
import { chatMessage, startTestCore, type TestCore } from '../support/runtime.ts'
import { FILMS, inhibitor } from './spores.ts'

let core: TestCore | undefined
afterEach(async () => {
  await core?.stop()
  core = undefined
})

const refusals = (c: TestCore) => c.logs().filter((l) => l.msg === 'message refused at admission')

describe('admission through the real bus', () => {
  it('a refusal is silent on the channel and logged for the operator, advisory or enforcing', async () => {
    core = await startTestCore({
      spores: { films: FILMS, gate: inhibitor('gate'), wall: inhibitor('wall', { enforcing: true }) },
    })
    expect(await core.ask('/ping', { from: 'banned' })).toEqual([])
    expect(refusals(core).at(-1)).toMatchObject({
      inhibitor: 'gate',
      reason: 'gate bans this sender',
      sender: 'banned',
    })
    // Refused before any principal is resolved: a refused sender leaves no trace in the store.
    expect(core.assembly.runtime.directory.load('banned')).toBeUndefined()
    expect(await core.ask('/ping')).toEqual(['pong in English'])
  })

  it('skips an advisory inhibitor that throws, with a warning', async () => {
    core = await startTestCore({ spores: { films: FILMS, gate: inhibitor('gate') } })
    expect(await core.ask('/ping explode-gate')).toEqual(['pong in English'])
    expect(core.logs().find((l) => l.msg === 'advisory inhibitor failed; skipped')).toMatchObject({
      inhibitor: 'gate',
      error: 'gate exploded',
    })
  })

  it('refuses all traffic when an enforcing inhibitor throws', async () => {
    core = await startTestCore({ spores: { films: FILMS, wall: inhibitor('wall', { enforcing: true }) } })
    expect(await core.ask('/ping explode-wall')).toEqual([])
    expect(String(refusals(core).at(-1)?.reason)).toContain('wall exploded')
  })

  it('an enforcing inhibitor whose start() threw refuses all traffic; an advisory one is absent', async () => {
    core = await startTestCore({
      spores: { films: FILMS, wall: inhibitor('wall', { enforcing: true, startThrows: true }) },
    })
    expect(core.germination.byName.get('wall')?.state).toBe('dormant')
    expect(await core.ask('/ping')).toEqual([])
    expect(String(refusals(core).at(-1)?.reason)).toContain('no allow-list file')
    await core.stop()
    core = await startTestCore({ spores: { films: FILMS, gate: inhibitor('gate', { startThrows: true }) } })
    expect(await core.ask('/ping')).toEqual(['pong in English'])
  })

  it('an enforcing inhibitor whose module will not load or whose manifest is refused refuses all traffic', async () => {
    core = await startTestCore({
      spores: {
        films: FILMS,
        broken: {
          'spore.yaml': 'kind: inhibitor\nname: broken\nseptum: "^1.0"\nenforcing: true\n',
          'src/index.ts': "throw new Error('syntax of the allow-list')\n",
        },
      },
    })
    expect(await core.ask('/ping')).toEqual([])
    await core.stop()
    core = await startTestCore({
      spores: {
        films: FILMS,
        refused: {
          'spore.yaml': 'kind: inhibitor\nname: refused\nseptum: "^1.0"\nenforcing: true\nunknown_field: 1\n',
          'src/index.ts': 'export default { create: () => ({ inspect: () => ({ allow: true }) }) }\n',
        },
      },
    })
    expect(await core.ask('/ping')).toEqual([])
    expect(String(refusals(core).at(-1)?.reason)).toContain('unknown_field')
  })

  it('an enforcing inhibitor whose settings its schema rejects refuses all traffic; an advisory one is absent', async () => {
    const guarded = (enforcing: boolean) => ({
      'spore.yaml': `kind: inhibitor\nname: keyed\nseptum: "^1.0"\nenforcing: ${enforcing}\n`,
      'src/index.ts': `import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'
export default {
  configSchema: defineConfig(z.object({ allowList: z.string().min(1) })),
  create: () => ({ inspect: () => ({ allow: true }) }),
}
`,
    })
    core = await startTestCore({ spores: { films: FILMS, keyed: guarded(true) } })
    expect(core.germination.byName.get('keyed')).toMatchObject({ state: 'dormant' })
    expect(await core.ask('/ping')).toEqual([])
    expect(String(refusals(core).at(-1)?.reason)).toContain('configuration is incomplete: allowList')
    await core.stop()
    core = await startTestCore({ spores: { films: FILMS, keyed: guarded(false) } })
    expect(await core.ask('/ping')).toEqual(['pong in English'])
  })

  it('an inhibitor speaks the configured default locale, since no reader is known yet', async () => {
    core = await startTestCore({
      config: 'defaultLocale: fr\n',
      spores: {
        films: FILMS,
        polite: {
          'spore.yaml': 'kind: inhibitor\nname: polite\nseptum: "^1.0"\n',
          'src/index.ts': `export default { create: () => ({
            inspect: (message, ctx) => message.sender.externalId === 'stranger'
              ? { allow: false, reason: ctx.t('closed') }
              : { allow: true },
          }) }\n`,
          'translations/en.yaml': 'closed: closed to strangers\n',
          'translations/fr.yaml': 'closed: fermé aux inconnus\n',
        },
      },
    })
    expect(await core.ask('/ping', { from: 'stranger' })).toEqual([])
    expect(refusals(core).at(-1)).toMatchObject({ inhibitor: 'polite', reason: 'fermé aux inconnus' })
  })

  it('confining an enforcing inhibitor to other channels applies to the very next message', async () => {
    core = await startTestCore({
      spores: { films: FILMS, wall: inhibitor('wall', { enforcing: true, startThrows: true }) },
    })
    expect(await core.ask('/ping')).toEqual([])
    core.assembly.runtime.restrictions.confine('wall', ['discord'])
    expect(await core.ask('/ping')).toEqual(['pong in English'])
    core.assembly.runtime.restrictions.confine('wall', [])
    expect(await core.ask('/ping')).toEqual([])
  })

  it('runs inhibitors in name order and stops at the first refusal', async () => {
    core = await startTestCore({
      spores: { films: FILMS, zeta: inhibitor('zeta'), alpha: inhibitor('alpha') },
    })
    expect(await core.ask('/ping', { from: 'banned' })).toEqual([])
    expect(refusals(core).at(-1)).toMatchObject({ inhibitor: 'alpha' })
  })
})

describe('a message whose admission waited', () => {
  it('resolves its emit, never rejecting, when the path fails after the wait; the failure is logged', async () => {
    core = await startTestCore({
      spores: {
        films: FILMS,
        slow: {
          'spore.yaml': 'kind: inhibitor\nname: slow\nseptum: "^1.0"\nenforcing: true\n',
          'src/index.ts': `export default { create: () => ({
            inspect: async () => { await Bun.sleep(1); return { allow: true } },
          }) }\n`,
        },
      },
    })
    const runtime = core.assembly.runtime
    const chat = core.germination.byName.get('chat')!.instance as { say(message: unknown): Promise<void> }
    const { directory } = runtime
    const recall = directory.recall.bind(directory)
    // The step after admission throws once, as a store fault would.
    directory.recall = () => {
      directory.recall = recall
      throw new Error('disk I/O error')
    }
    const emitted = chat.say(chatMessage('/ping', 'm-fails'))
    await expect(emitted).resolves.toBeUndefined()
    expect(core.logs().find((line) => line.msg === 'the message path failed')).toMatchObject({
      hypha: 'chat',
      error: 'disk I/O error',
    })
    // The next message goes through, answered.
    expect(await core.ask('/ping')).toEqual(['pong in English'])
  })
})

describe('what an inhibitor can ask', () => {
  it('groupMembers answers from the hypha, and requireCapability throws where the channel lacks it', async () => {
    core = await startTestCore({ spores: { gate: inhibitor('gate') } })
    const ctx = core.assembly.contexts.inhibitor(core.germination.byName.get('gate')!)
    expect(await ctx.groupMembers('chat', 'g1')).toEqual([{ channel: 'chat', externalId: 'g1-member' }])
    expect(await ctx.groupMembers('nowhere', 'g1')).toBeNull()
    expect(() => ctx.requireCapability('chat', 'group_membership')).not.toThrow()
    expect(() => ctx.requireCapability('chat', 'threads')).toThrow('channel "chat" lacks threads')
  })

  it('an enforcing inhibitor that requires a capability the channel lacks is dormant and refuses all', async () => {
    core = await startTestCore({
      spores: {
        films: FILMS,
        members: {
          'spore.yaml': 'kind: inhibitor\nname: members\nseptum: "^1.0"\nenforcing: true\n',
          'src/index.ts': `export default { create: () => ({
            async start(ctx) { ctx.requireCapability('chat', 'threads') },
            inspect: () => ({ allow: true }),
          }) }\n`,
        },
      },
    })
    expect(core.germination.byName.get('members')?.state).toBe('dormant')
    expect(await core.ask('/ping')).toEqual([])
  })
})
