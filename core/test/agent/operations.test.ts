import { describe, expect, it } from 'bun:test'
import { z } from 'zod'
import {
  AgentDefinitionError,
  type AgentModule,
  defineModule,
  defineOperation,
  installModules,
  makeAgentRuntime,
} from '../../agent/index.ts'

const op = (extra: Record<string, unknown> = {}) => ({
  input: z.object({}),
  output: z.string(),
  run: () => 'done',
  ...extra,
})

describe('labels, parsed at definition', () => {
  it('reads an unlabelled operation as a write that asks nobody (“an unlabelled operation is write”)', () => {
    expect(defineOperation(op()).policy).toEqual({ access: 'write', confirm: false })
    expect(defineOperation(op({ access: 'read', confirm: true })).policy).toEqual({
      access: 'read',
      confirm: true,
    })
  })

  it('refuses anything but exactly read/write and a boolean confirm (“Labels are parsed at definition with ToolPolicySchema”)', () => {
    for (const bad of [
      { access: 'READ' },
      { access: 'admin' },
      { access: 1 },
      { confirm: 'yes' },
      { confirm: 1 },
    ]) {
      expect(() => defineOperation(op(bad) as never)).toThrow(AgentDefinitionError)
    }
  })

  it('refuses an operation without a Standard JSON Schema input or output, or without run (“any Standard Schema that also implements Standard JSON Schema”)', () => {
    expect(() => defineOperation(op({ input: { parse: () => ({}) } }) as never)).toThrow(
      /input is neither an Effect Schema nor a Standard Schema/,
    )
    expect(() => defineOperation(op({ output: undefined }) as never)).toThrow(
      /output is neither an Effect Schema nor a Standard Schema/,
    )
    expect(() => defineOperation(op({ run: 'no' }) as never)).toThrow(/run is not a function/)
  })
})

describe('nested namespaces', () => {
  const windows = defineModule({ id: 'windows', operations: { open: op(), 'tabs.close': op() } })

  it('exposes a child under the enclosing module, which stays the authority (“Stable module IDs identify authority”; “Compose modules in operations to expose any namespace depth”; “The enclosing module ID remains the authority identity”; “env.apps.bazaar.windows.open(...)”)', () => {
    const bazaar = defineModule({ id: 'bazaar', namespace: ['apps'], operations: { windows } })
    const [open, close] = installModules([bazaar])
    expect(open).toMatchObject({
      module: 'bazaar',
      relative: 'windows.open',
      path: 'apps.bazaar.windows.open',
    })
    expect(close).toMatchObject({
      module: 'bazaar',
      relative: 'windows.tabs.close',
      path: 'apps.bazaar.windows.tabs.close',
    })
  })

  it('puts a child’s own namespace after its registration key (“A child’s own namespace adds segments after its registration key”)', () => {
    const child = defineModule({ id: 'child', namespace: ['v2'], operations: { ping: op() } })
    const parent = defineModule({ id: 'parent', operations: { kid: child } })
    expect(installModules([parent]).map((leaf) => leaf.path)).toEqual(['parent.kid.v2.ping'])
  })

  it('calls a dotted key exactly like a child module (“An operation key may also be a dotted relative path”)', () => {
    const dotted = defineModule({ id: 'code', operations: { 'repos.list': op() } })
    const nested = defineModule({
      id: 'code',
      operations: { repos: defineModule({ id: 'r', operations: { list: op() } }) },
    })
    expect(installModules([dotted])[0]!.path).toBe(installModules([nested])[0]!.path)
    expect(installModules([dotted])[0]!.path).toBe('code.repos.list')
  })

  it('refuses a key that is both an operation and a namespace prefix (“Installation refuses a key that is both an operation and a namespace prefix”)', () => {
    const files = defineModule({ id: 'files', operations: { files: op(), 'files.read': op() } })
    expect(() => installModules([files])).toThrow(/"files.files" is both an operation and a namespace prefix/)
    expect(() => makeAgentRuntime({ modules: [files] })).toThrow(AgentDefinitionError)
  })

  it('allocates names within their logical namespace (“Names are allocated within their logical namespace”) (“Names become model-facing aliases”)', () => {
    const app = defineModule({ id: 'app-1', name: 'notes', namespace: ['apps'], operations: { ping: op() } })
    const computer = defineModule({
      id: 'computer-1',
      name: 'notes',
      namespace: ['computers'],
      operations: { ping: op() },
    })
    const twin = defineModule({ id: 'app-2', name: 'notes', namespace: ['apps'], operations: { ping: op() } })
    const aliases = (modules: AgentModule[]) =>
      Object.fromEntries(installModules(modules).map((leaf) => [leaf.module, leaf.path]))
    expect(aliases([app, computer, twin])).toEqual({
      'app-1': 'apps.notes.ping',
      'app-2': 'apps.notes_2.ping',
      'computer-1': 'computers.notes.ping',
    })
  })

  it('gives the same aliases in any input order (“Input ordering does not choose either identity”)', () => {
    const made = (id: string) => defineModule({ id, name: 'notes', operations: { ping: op() } })
    const [one, two, three] = [made('app-1'), made('app-2'), made('app-3')]
    const aliases = (modules: AgentModule[]) =>
      Object.fromEntries(installModules(modules).map((leaf) => [leaf.module, leaf.path]))
    const expected = { 'app-1': 'notes.ping', 'app-2': 'notes_2.ping', 'app-3': 'notes_3.ping' }
    expect(aliases([one, two, three])).toEqual(expected)
    expect(aliases([three, one, two])).toEqual(expected)
    expect(aliases([two, three, one])).toEqual(expected)
  })

  it('refuses two modules with one id, and a name a guest object cannot hold', () => {
    const one = defineModule({ id: 'same', operations: { a: op() } })
    const two = defineModule({ id: 'same', name: 'other', operations: { b: op() } })
    expect(() => installModules([one, two])).toThrow(/share the id "same"/)
    expect(() => defineModule({ id: 'x', operations: { __proto__x: op(), 'a.__proto__': op() } })).toThrow(
      /"__proto__" is not a usable name/,
    )
  })
})

describe('decoding, running and validating', () => {
  const throwing = z.object({ n: z.number() }).refine(() => {
    throw new Error('the refinement broke')
  })
  const calc = defineModule({
    id: 'calc',
    operations: {
      double: {
        access: 'read',
        input: z.object({ n: z.number() }),
        output: z.number(),
        run: ({ n }) => n * 2,
      },
      lies: { access: 'read', input: z.object({}), output: z.number(), run: () => 'not a number' },
      fragile: { access: 'read', input: throwing, output: z.number(), run: () => 1 },
      save: { input: z.object({}), output: z.boolean(), run: () => true },
    },
  })

  it('decodes input before the operation runs and validates its output (“Mycelium decodes input with the schema before the operation runs”; “a Standard output schema validates it”)', async () => {
    const runtime = makeAgentRuntime({ modules: [calc] })
    expect(await runtime.invoke('calc.double', { n: 4 })).toEqual({ kind: 'value', value: 8 })
    expect(await runtime.invoke('calc.double', { n: 'four' })).toMatchObject({ kind: 'invalid-input' })
    expect(await runtime.invoke('calc.lies', {})).toMatchObject({ kind: 'failed' })
  })

  it('treats a throwing refinement as a host error, never invalid input (“never reported to the model as invalid input”)', async () => {
    const runtime = makeAgentRuntime({ modules: [calc] })
    const result = await runtime.invoke('calc.fragile', { n: 1 })
    expect(result.kind).toBe('failed')
  })

  it('lets a direct call bring its own context, and refuses a write without identity when the host requires it (“You can also execute a known operation without a model”; “Direct invokeModuleOperation callers supply their own context”; “refuse a write with missing identity rather than invent a fallback”)', async () => {
    const strict = makeAgentRuntime({ modules: [calc], execution: { requireIdentity: true } })
    expect(await strict.invoke('calc.double', { n: 1 })).toEqual({ kind: 'value', value: 2 })
    const missing = await strict.invoke('calc.save', {}, { executionId: 'e1' })
    expect(missing).toMatchObject({
      kind: 'refused',
      refusal: { module: 'calc', operation: 'save', reason: 'identity-missing' },
    })
    expect(await strict.invoke('calc.save', {}, { executionId: 'e1', operationOrdinal: 0 })).toEqual({
      kind: 'value',
      value: true,
    })
    const lenient = makeAgentRuntime({ modules: [calc] })
    expect(await lenient.invoke('calc.save', {})).toEqual({ kind: 'value', value: true })
  })
})

describe('what an operation is given, and what its labels are', () => {
  it('hands the callback only its declared input and the execution context (“The operation callback receives only its declared input and execution context”)', async () => {
    const calls: unknown[][] = []
    const module = defineModule({
      id: 'probe',
      operations: {
        look: {
          access: 'read',
          input: z.object({ n: z.number() }),
          output: z.null(),
          run: (...args: unknown[]) => {
            calls.push(args)
            return null
          },
        },
      },
    })
    const runtime = makeAgentRuntime({ modules: [module] })
    const result = await runtime.execute({
      program: 'return await env.probe.look({ n: 1, extra: "dropped" })',
    })
    expect(result.ok).toBe(true)
    expect(calls).toHaveLength(1)
    const [input, context, ...more] = calls[0]!
    expect(more).toEqual([])
    // The decoded input: what the schema declares, nothing the guest added.
    expect(input).toEqual({ n: 1 })
    expect(Object.keys(context as object).sort()).toEqual(['executionId', 'operationOrdinal', 'signal'])
  })

  it('keeps the labels its author gave, frozen, whatever the host tries (“Labels are fixed facts about the operation; the host never edits them”)', () => {
    const module = defineModule({ id: 'fixed', operations: { save: op({ access: 'write', confirm: true }) } })
    const save = module.operations.save as { policy: { access: string; confirm: boolean } }
    expect(save.policy).toEqual({ access: 'write', confirm: true })
    expect(Object.isFrozen(save.policy)).toBe(true)
    expect(Object.isFrozen(save)).toBe(true)
    expect(() => {
      ;(save.policy as { access: string }).access = 'read'
    }).toThrow()
    expect(installModules([module])[0]!.operation.policy).toEqual({ access: 'write', confirm: true })
  })

  it('lets no invocation metadata stand in for a grant (“This metadata grants neither authority nor permission to replay unsafe work”)', async () => {
    const module = defineModule({ id: 'vault', operations: { wipe: op({ access: 'write' }) } })
    const runtime = makeAgentRuntime({ modules: [module], access: { grants: { vault: 'none' } } })
    const forged = await runtime.invoke(
      'vault.wipe',
      {},
      { executionId: 'replayed', toolCallId: 'call-1', operationOrdinal: 0 },
    )
    expect(forged).toMatchObject({ kind: 'refused', refusal: { module: 'vault', reason: 'not-granted' } })
  })
})
