import { describe, expect, it } from 'bun:test'
import type { Hypha, HyphaModule } from '@mycelo/septum'
import { hyphaChecks } from '@mycelo/septum/conformance'
import { hyphaContext as context } from './fixtures/conformance/contexts.ts'
import { sent } from './fixtures/conformance/echo-hypha/src/index.ts'
import { loadSpore } from './fixtures/conformance/load-spore.ts'

const echo = await loadSpore('echo-hypha')
const echoModule = echo.module as HyphaModule

/** The echo hypha with some of its members replaced or removed. */
function altered(change: (hypha: Hypha) => Partial<Record<keyof Hypha, unknown>>): HyphaModule {
  return {
    create: async () => {
      const hypha = await echoModule.create()
      return { ...hypha, ...change(hypha) } as Hypha
    },
  }
}

const withoutMembership = { ...(echo.manifest as object), capabilities: ['reactions'] }

describe('hyphaChecks', () => {
  it('passes the echo hypha, sending once to the given conversation and listing a group', async () => {
    sent.length = 0
    const failures = await hyphaChecks({
      name: 'echo',
      manifest: echo.manifest,
      module: echoModule,
      context,
      membershipGroupId: 'book-club',
      conversationId: 'room-7',
    })
    expect(failures).toEqual([])
    expect(sent).toEqual([{ conversationId: 'room-7', content: { text: 'conformance check' } }])
  })

  it('sends to the conformance conversation by default', async () => {
    sent.length = 0
    expect(await hyphaChecks({ name: 'echo', manifest: echo.manifest, module: echoModule, context })).toEqual(
      [],
    )
    expect(sent.map((entry) => entry.conversationId)).toEqual(['conformance'])
  })

  it('fails a hypha declaring group_membership without listGroupMembers()', async () => {
    const failures = await hyphaChecks({
      name: 'echo',
      manifest: echo.manifest,
      module: altered(() => ({ listGroupMembers: undefined })),
      context,
      membershipGroupId: 'book-club',
    })
    expect(failures).toEqual([
      'capabilities: declares group_membership, but the hypha has no listGroupMembers()',
    ])
  })

  it('fails a hypha with listGroupMembers() that does not declare group_membership', async () => {
    const failures = await hyphaChecks({
      name: 'echo',
      manifest: withoutMembership,
      module: echoModule,
      context,
    })
    expect(failures).toEqual([
      'capabilities: the hypha has listGroupMembers() but does not declare group_membership',
    ])
  })

  it('fails a membershipGroupId given to a hypha that cannot list members', async () => {
    const failures = await hyphaChecks({
      name: 'echo',
      manifest: withoutMembership,
      module: altered(() => ({ listGroupMembers: undefined })),
      context,
      membershipGroupId: 'book-club',
    })
    expect(failures).toEqual([
      'listGroupMembers("book-club"): a membershipGroupId was given, but the hypha has no listGroupMembers()',
    ])
  })

  it('fails a listGroupMembers() that rejects or resolves something other than an array', async () => {
    const rejecting = await hyphaChecks({
      name: 'echo',
      manifest: echo.manifest,
      module: altered(() => ({ listGroupMembers: () => Promise.reject(new Error('group not found')) })),
      context,
      membershipGroupId: 'book-club',
    })
    expect(rejecting).toEqual(['listGroupMembers("book-club"): threw: Error: group not found'])
    const nulls = await hyphaChecks({
      name: 'echo',
      manifest: echo.manifest,
      module: altered(() => ({ listGroupMembers: async () => null })),
      context,
      membershipGroupId: 'book-club',
    })
    expect(nulls).toEqual(['listGroupMembers("book-club"): resolved null, not an array'])
  })

  it('fails a hypha missing connect/listen/stop/send', async () => {
    const failures = await hyphaChecks({
      name: 'echo',
      manifest: echo.manifest,
      module: altered(() => ({ send: undefined, listen: 'soon' })),
      context,
    })
    expect(failures).toEqual([
      'module: create() returned no listen() function',
      'module: create() returned no send() function',
    ])
  })

  it('fails each lifecycle step that throws, still stopping a connected hypha', async () => {
    let stopped = false
    const listenFails = await hyphaChecks({
      name: 'echo',
      manifest: echo.manifest,
      module: altered((hypha) => ({
        listen: () => Promise.reject(new Error('port taken')),
        stop: async () => {
          stopped = true
          await hypha.stop()
        },
      })),
      context,
    })
    expect(listenFails).toEqual(['listen(): threw: Error: port taken'])
    expect(stopped).toBe(true)

    const connectFails = await hyphaChecks({
      name: 'echo',
      manifest: echo.manifest,
      module: altered(() => ({ connect: () => Promise.reject(new Error('bad token')) })),
      context,
    })
    expect(connectFails).toEqual(['connect(): threw: Error: bad token'])

    const sendAndStopFail = await hyphaChecks({
      name: 'echo',
      manifest: echo.manifest,
      module: altered(() => ({
        send: () => Promise.reject(new Error('rate limited')),
        stop: () => Promise.reject(new Error('already closed')),
      })),
      context,
      conversationId: 'room-7',
    })
    expect(sendAndStopFail).toEqual([
      'send("room-7", { text }): threw: Error: rate limited',
      'stop(): threw: Error: already closed',
    ])
  })
})
