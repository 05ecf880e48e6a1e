import { describe, expect, it } from 'bun:test'
import { AsyncLocalStorage } from 'node:async_hooks'
import { CallContexts, ForgottenCallError } from '../../hosts/call-context.ts'

// Who a call runs for, as a side of the bridge keeps it for the other side's calls back.
const person = new AsyncLocalStorage<string>()

describe('the contexts a side keeps for its calls', () => {
  it('serves a call back in the context of the call it was made serving', () => {
    const contexts = new CallContexts()
    contexts.track()
    person.run('alice', () => contexts.made(1))
    person.run('bob', () => contexts.made(2))
    expect(contexts.serve(10, 1, () => person.getStore())).toBe('alice')
    expect(contexts.serve(11, 2, () => person.getStore())).toBe('bob')
    expect(contexts.serve(12, undefined, () => person.getStore())).toBeUndefined()
  })

  it('refuses a call back made serving a call whose context was let go, rather than serving it in none', () => {
    const contexts = new CallContexts()
    contexts.track()
    person.run('alice', () => contexts.made(1))
    for (let seq = 2; seq <= 1_100; seq++) person.run('bob', () => contexts.made(seq))
    expect(() => contexts.serve(2_000, 1, () => person.getStore())).toThrow(ForgottenCallError)
    expect(contexts.serve(2_001, 1_100, () => person.getStore())).toBe('bob')
  })

  it('serves in none a call back made serving one from before it kept contexts (nothing acted for anyone then)', () => {
    const contexts = new CallContexts()
    contexts.made(1)
    contexts.track()
    expect(contexts.serve(10, 1, () => person.getStore())).toBeUndefined()
  })
})
