import { describe, expect, it } from 'bun:test'
import type { InhibitorContext, InhibitorModule, Verdict } from '@mycelo/septum'
import { inhibitorChecks } from '@mycelo/septum/conformance'
import { inhibitorContext } from './fixtures/conformance/contexts.ts'
import { loadSpore } from './fixtures/conformance/load-spore.ts'

interface AllowlistConfig {
  readonly allowed: readonly string[]
}

const context = (): InhibitorContext<AllowlistConfig> => inhibitorContext({ allowed: ['alice'] })

const allowlist = await loadSpore('allowlist')
const allowlistModule = allowlist.module as InhibitorModule<AllowlistConfig>

const from = (externalId: string) => ({ sender: { channel: 'conformance', externalId }, text: 'hello' })

/** An inhibitor answering one fixed verdict to everything. */
function answering(verdict: unknown): InhibitorModule<AllowlistConfig> {
  return { create: () => ({ inspect: () => verdict as Verdict }) }
}

describe('inhibitorChecks', () => {
  it('passes the allowlist with one verdict per expectation', async () => {
    const failures = await inhibitorChecks({
      name: 'allowlist',
      manifest: allowlist.manifest,
      module: allowlistModule,
      context,
      expectations: [
        { message: from('alice'), allow: true, label: 'alice is listed' },
        { message: from('mallory'), allow: false, label: 'mallory is not' },
      ],
    })
    expect(failures).toEqual([])
  })

  it('fails each verdict that differs from the expectation, by label or position', async () => {
    const failures = await inhibitorChecks({
      name: 'allowlist',
      manifest: allowlist.manifest,
      module: allowlistModule,
      context,
      expectations: [
        { message: from('mallory'), allow: true, label: 'mallory' },
        { message: from('alice'), allow: false },
      ],
    })
    expect(failures).toEqual([
      'expectation "mallory": expected the message allowed, but inspect() refused it: ' +
        'sender mallory is not on the allowlist',
      'expectation #2: expected the message refused, but inspect() allowed it',
    ])
  })

  it('fails a refusal without a reason, even one that was expected', async () => {
    for (const verdict of [{ allow: false }, { allow: false, reason: '  ' }]) {
      const failures = await inhibitorChecks({
        name: 'allowlist',
        manifest: allowlist.manifest,
        module: answering(verdict),
        context,
        expectations: [{ message: from('mallory'), allow: false, label: 'mallory' }],
      })
      expect(failures).toEqual([
        'expectation "mallory": inspect() refused without a reason; a refusal must say why, for the operator',
      ])
    }
  })

  it('fails an inspect() that throws or answers no verdict', async () => {
    const throwing: InhibitorModule<AllowlistConfig> = {
      create: () => ({
        inspect: () => {
          throw new Error('list unavailable')
        },
      }),
    }
    const thrown = await inhibitorChecks({
      name: 'allowlist',
      manifest: allowlist.manifest,
      module: throwing,
      context,
      expectations: [{ message: from('alice'), allow: true, label: 'alice' }],
    })
    expect(thrown).toEqual(['expectation "alice": inspect() threw: Error: list unavailable'])
    const none = await inhibitorChecks({
      name: 'allowlist',
      manifest: allowlist.manifest,
      module: answering(true),
      context,
      expectations: [{ message: from('alice'), allow: true, label: 'alice' }],
    })
    expect(none).toEqual([
      'expectation "alice": inspect() returned no verdict; answer { allow: true } or { allow: false, reason }',
    ])
  })

  it('runs start() before inspecting and stop() after, failing a throwing start() and inspecting nothing', async () => {
    const calls: string[] = []
    const lifecycle: InhibitorModule<AllowlistConfig> = {
      create: () => ({
        async start(ctx) {
          calls.push('start')
          ctx.requireCapability('conformance', 'group_membership')
        },
        inspect: () => {
          calls.push('inspect')
          return { allow: true }
        },
        async stop() {
          calls.push('stop')
        },
      }),
    }
    const expectations = [{ message: from('alice'), allow: true }]
    const failures = await inhibitorChecks({
      name: 'allowlist',
      manifest: allowlist.manifest,
      module: lifecycle,
      context,
      expectations,
    })
    expect(failures).toEqual([])
    expect(calls).toEqual(['start', 'inspect', 'stop'])

    calls.length = 0
    const refused = await inhibitorChecks({
      name: 'allowlist',
      manifest: allowlist.manifest,
      module: lifecycle,
      context: () => ({
        ...context(),
        requireCapability: () => {
          throw new Error('channel conformance cannot report group membership')
        },
      }),
      expectations,
    })
    expect(refused).toEqual([
      'start(): threw: Error: channel conformance cannot report group membership; ' +
        'the inhibitor would never become usable',
    ])
    expect(calls).toEqual(['start'])
  })

  it('fills a partial message with a whole one before inspect() sees it', async () => {
    const seen: unknown[] = []
    const recording: InhibitorModule<AllowlistConfig> = {
      create: () => ({
        inspect: (message) => {
          seen.push(message)
          return { allow: true }
        },
      }),
    }
    await inhibitorChecks({
      name: 'allowlist',
      manifest: allowlist.manifest,
      module: recording,
      context,
      expectations: [{ message: { text: 'hi', group: { id: 'g1' } }, allow: true }],
    })
    expect(seen).toHaveLength(1)
    expect(seen[0]).toMatchObject({
      channel: 'conformance',
      conversationId: 'conformance',
      text: 'hi',
      group: { id: 'g1' },
      sender: { channel: 'conformance', externalId: 'conformance-sender' },
      attachments: [],
    })
  })
})

it('resolves with a failure rather than rejecting when a check cannot run at all', async () => {
  const failures = await inhibitorChecks({
    name: 'allowlist',
    manifest: allowlist.manifest,
    module: allowlistModule,
    context,
    expectations: undefined as unknown as [],
  })
  expect(failures).toHaveLength(1)
  expect(failures[0]).toStartWith('conformance kit: a check could not run: TypeError: ')
})
