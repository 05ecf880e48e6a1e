import { describe, expect, it } from 'bun:test'
import { z } from 'zod'
import {
  type AccessRefusal,
  type ConfirmRequest,
  defineModule,
  type Grants,
  grantAs,
  makeAgentRuntime,
} from '../../agent/index.ts'
import { notesModule } from './notes.ts'

/** Runs a program and answers its value, failing the test on any sandbox failure. */
async function run(runtime: ReturnType<typeof makeAgentRuntime>, program: string): Promise<unknown> {
  const result = await runtime.execute({ program })
  if (!result.ok) throw new Error(`execute failed: ${result.message}`)
  return result.value
}

describe('grants', () => {
  it('lets a read through a read grant and refuses a write as an ordinary result (“The host passes its decisions down as data in access”; “grants maps a module id to”; “A refused call returns an AccessRefusal”)', async () => {
    const { module, notes } = notesModule()
    const runtime = makeAgentRuntime({ modules: [module], access: { grants: { notes: 'read' } } })
    const value = await run(runtime, `return [await env.notes.list({}), await env.notes.add({ text: 'x' })]`)
    expect(value).toEqual([
      [],
      {
        refused: true,
        module: 'notes',
        operation: 'add',
        reason: 'read-only',
        key: 'refusal.agent_read_only',
        message: 'Refused: this agent may only read "notes", and "add" changes something.',
      },
    ])
    expect(notes).toEqual([])
  })

  it('looks a module built under a wider owner up by the owner’s grant (grantAs), refusing under its own id (“looks a module’s grant up by a wider owner’s key”)', async () => {
    const { module: notes, notes: written } = notesModule()
    const { module: drafts } = notesModule('drafts')
    const runtime = makeAgentRuntime({
      modules: [grantAs('editor', notes), grantAs('editor', drafts)],
      access: { grants: { editor: 'read', notes: 'write' } },
    })
    const value = await run(runtime, `return [await env.drafts.list({}), await env.notes.add({ text: 'x' })]`)
    expect(value).toEqual([
      [],
      expect.objectContaining({ refused: true, module: 'notes', reason: 'read-only' }),
    ])
    expect(written).toEqual([])
    expect(() => grantAs('', notes)).toThrow('grantAs needs an owner key')
  })

  it('refuses everything under none, and gives an unnamed module full access (“grants maps a module id to”; “A module the host does not name keeps full access”)', async () => {
    const { module: closed } = notesModule('closed')
    const { module: open, notes } = notesModule('open')
    const runtime = makeAgentRuntime({ modules: [closed, open], access: { grants: { closed: 'none' } } })
    const value = (await run(
      runtime,
      `return [await env.closed.list({}), await env.open.add({ text: 'kept' })]`,
    )) as unknown[]
    expect(value[0]).toMatchObject({ refused: true, module: 'closed', reason: 'not-granted' })
    expect(value[1]).toEqual({ count: 1 })
    expect(notes).toEqual(['kept'])
  })

  it('fails a required module closed unless a grant names it (“Keys in required fail closed”)', async () => {
    const { module } = notesModule()
    const closed = makeAgentRuntime({ modules: [module], access: { required: ['notes'] } })
    expect(await run(closed, 'return await env.notes.list({})')).toMatchObject({ reason: 'not-granted' })
    const named = makeAgentRuntime({
      modules: [module],
      access: { required: ['notes'], grants: { notes: 'read' } },
    })
    expect(await run(named, 'return await env.notes.list({})')).toEqual([])
  })

  it('reads a required list at every call (“Keys in required fail closed: when neither names one, it is none”) (“Keys in required fail closed”)', async () => {
    const { module } = notesModule()
    const required: string[] = []
    const runtime = makeAgentRuntime({ modules: [module], access: { required: () => required } })
    expect(await run(runtime, 'return await env.notes.list({})')).toEqual([])
    // The module became required after the runtime opened: the very next call is refused.
    required.push('notes')
    expect(await run(runtime, 'return await env.notes.list({})')).toMatchObject({ reason: 'not-granted' })
  })

  it('reads the session grants at every call, so a revoke applies to the very next call (“a revoked grant applies to the very next call”)', async () => {
    const { module, notes } = notesModule()
    let session: Grants = { notes: 'write' }
    const runtime = makeAgentRuntime({
      modules: [module],
      access: { grants: { notes: 'read' }, sessionGrants: () => session },
    })
    // The revoke happens between two calls of the same execute.
    const revoking = defineModule({
      id: 'session',
      operations: {
        revoke: {
          access: 'read',
          input: z.object({}),
          output: z.null(),
          run: () => {
            session = { notes: 'none' }
            return null
          },
        },
      },
    })
    const both = makeAgentRuntime({
      modules: [module, revoking],
      access: { sessionGrants: () => session },
    })
    expect(await run(runtime, `return await env.notes.add({ text: 'a' })`)).toEqual({ count: 1 })
    const value = (await run(
      both,
      `const first = await env.notes.add({ text: 'b' }); await env.session.revoke({}); return [first, await env.notes.list({})]`,
    )) as unknown[]
    expect(value[0]).toEqual({ count: 2 })
    expect(value[1]).toMatchObject({ refused: true, reason: 'not-granted' })
    session = { notes: 'read' }
    expect(await run(runtime, `return await env.notes.add({ text: 'c' })`)).toMatchObject({
      reason: 'read-only',
    })
    expect(notes).toEqual(['a', 'b'])
  })
})

describe('confirmation', () => {
  it('runs a confirm operation once the person says yes, asking with module, operation and label only (“An author may add confirm: true to ask a person before each call”)', async () => {
    const { module, notes } = notesModule()
    notes.push('one', 'two')
    const asked: ConfirmRequest[] = []
    const runtime = makeAgentRuntime({
      modules: [module],
      access: { confirm: async (request) => asked.push(request) > 0 },
    })
    expect(await run(runtime, 'return await env.notes.clear({})')).toEqual({ removed: 2 })
    expect(asked).toEqual([{ module: 'notes', operation: 'clear', access: 'write' }])
    expect(Object.isFrozen(asked[0])).toBe(true)
  })

  it('refuses when the person declines, when the port fails, and when there is no one to ask (“without it, a confirm operation is refused and never runs unasked”)', async () => {
    const { module, notes } = notesModule()
    notes.push('kept')
    const declined = makeAgentRuntime({ modules: [module], access: { confirm: async () => false } })
    expect(await run(declined, 'return await env.notes.clear({})')).toMatchObject({
      refused: true,
      module: 'notes',
      operation: 'clear',
      reason: 'declined',
      message: 'Refused: the person declined "notes.clear".',
    })
    const broken = makeAgentRuntime({
      modules: [module],
      access: {
        confirm: async () => {
          throw new Error('the port is down')
        },
      },
    })
    expect(await run(broken, 'return await env.notes.clear({})')).toMatchObject({ reason: 'declined' })
    const nobody = makeAgentRuntime({ modules: [module] })
    expect(await run(nobody, 'return await env.notes.clear({})')).toMatchObject({ reason: 'unconfirmable' })
    expect(notes).toEqual(['kept'])
  })

  it('checks the grant before asking, and asks before decoding the input (“Access checks and authorization gates run before the operation”; “Mycelium checks the grant first, then the person, before the operation’s input decoder runs”)', async () => {
    const { module } = notesModule()
    let asked = 0
    const decoded: unknown[] = []
    const guarded = defineModule({
      id: 'guarded',
      operations: {
        wipe: {
          confirm: true,
          input: z.object({}).refine((value) => decoded.push(value) > 0),
          output: z.boolean(),
          run: () => true,
        },
      },
    })
    const confirm = async () => {
      asked++
      return false
    }
    const readOnly = makeAgentRuntime({
      modules: [module, guarded],
      access: { grants: { notes: 'read' }, confirm },
    })
    expect(await run(readOnly, 'return await env.notes.clear({})')).toMatchObject({ reason: 'read-only' })
    expect(asked).toBe(0)
    expect(await run(readOnly, 'return await env.guarded.wipe({})')).toMatchObject({ reason: 'declined' })
    expect(asked).toBe(1)
    expect(decoded).toEqual([])
  })
})

describe('direct tools', () => {
  const tool = (access: 'read' | 'write', confirm = false) => ({
    description: `a ${access} tool`,
    access,
    ...(confirm ? { confirm: true } : {}),
    input: z.object({ n: z.number() }),
    output: z.number(),
    run: ({ n }: { n: number }) => n * 2,
  })

  it('come back on the lease, behind the same checks as execute: grant, person, then input (“Labelled direct tools passed as tools sit behind the same check and come back on the lease’s tools”)', async () => {
    const asked: ConfirmRequest[] = []
    const runtime = makeAgentRuntime({
      tools: { peek: tool('read'), poke: tool('write'), wipe: tool('write', true) },
      access: {
        grants: { poke: 'read' },
        confirm: async (request) => {
          asked.push(request)
          return true
        },
      },
    })
    const lease = await runtime.lease()
    const { peek, poke, wipe } = lease.tools
    expect(await peek!({ n: 2 })).toEqual({ kind: 'value', value: 4 })
    expect(await poke!({ n: 2 })).toMatchObject({
      kind: 'refused',
      refusal: { module: 'poke', reason: 'read-only' },
    })
    expect(await wipe!({ n: 3 })).toEqual({ kind: 'value', value: 6 })
    expect(asked).toEqual([{ module: 'wipe', operation: 'wipe', access: 'write' }])
    expect(await peek!({ n: 'two' })).toMatchObject({ kind: 'invalid-input' })
    await lease.release()
    await expect(peek!({ n: 1 })).rejects.toThrow('this lease is released')
    await runtime.close()
  })

  it('refuse a confirm tool with no one to ask, and a badly labelled tool when the runtime opens', async () => {
    const runtime = makeAgentRuntime({ tools: { wipe: tool('write', true) } })
    const lease = await runtime.lease()
    expect(await lease.tools.wipe!({ n: 1 })).toMatchObject({
      kind: 'refused',
      refusal: { reason: 'unconfirmable' },
    })
    await lease.release()
    const sloppy = { ...tool('read'), access: 'readonly' } as unknown as ReturnType<typeof tool>
    expect(() => makeAgentRuntime({ tools: { sloppy } })).toThrow('tool "sloppy"')
  })
})

describe('onRefused', () => {
  it('observes every refusal and cannot change the decision, not even by throwing (“onRefused observes each refusal for logs or metering and never changes the decision”)', async () => {
    const { module, notes } = notesModule()
    const seen: AccessRefusal[] = []
    const runtime = makeAgentRuntime({
      modules: [module],
      access: {
        grants: { notes: 'read' },
        onRefused: (refusal) => {
          seen.push(refusal)
          ;(refusal as { refused: boolean }).refused = false
          throw new Error('observer fault')
        },
      },
    })
    expect(await run(runtime, `return await env.notes.add({ text: 'x' })`)).toMatchObject({
      refused: true,
      reason: 'read-only',
    })
    expect(seen).toHaveLength(1)
    expect(seen[0]).toMatchObject({ module: 'notes', operation: 'add', reason: 'read-only' })
    expect(notes).toEqual([])
  })
})

describe('a gate on an enclosing module', () => {
  it('sees the relative path of a nested operation under the module’s own id (“A gate on the enclosing module sees relative paths such as windows.open”) (“child registration IDs do not create new authority”)', async () => {
    const windows = defineModule({
      id: 'windows',
      operations: {
        open: { access: 'write', confirm: true, input: z.object({}), output: z.boolean(), run: () => true },
      },
    })
    const bazaar = defineModule({ id: 'bazaar', namespace: ['apps'], operations: { windows } })
    const asked: ConfirmRequest[] = []
    const refused: AccessRefusal[] = []
    const runtime = makeAgentRuntime({
      modules: [bazaar],
      access: {
        confirm: async (request) => asked.push(request) > 1,
        onRefused: (refusal) => refused.push(refusal),
      },
    })
    expect(await run(runtime, 'return await env.apps.bazaar.windows.open({})')).toMatchObject({
      refused: true,
    })
    expect(asked).toEqual([{ module: 'bazaar', operation: 'windows.open', access: 'write' }])
    expect(refused[0]).toMatchObject({ module: 'bazaar', operation: 'windows.open', reason: 'declined' })
    // The child's own id is no authority: a grant under it changes nothing, the enclosing one decides.
    const denied = makeAgentRuntime({
      modules: [bazaar],
      access: { grants: { windows: 'write', bazaar: 'none' } },
    })
    expect(await run(denied, 'return await env.apps.bazaar.windows.open({})')).toMatchObject({
      module: 'bazaar',
      operation: 'windows.open',
      reason: 'not-granted',
    })
  })
})
