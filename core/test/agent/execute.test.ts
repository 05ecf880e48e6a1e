import { describe, expect, it } from 'bun:test'
import { z } from 'zod'
import { MESSAGE_LIMIT } from '../../agent/failure.ts'
import {
  defineModule,
  makeAgentRuntime,
  type SandboxFailureReport,
  sandboxFailureMessage,
} from '../../agent/index.ts'
import { brokenModule, failed, gate, notesModule } from './notes.ts'

describe('a fresh sandbox per call', () => {
  it('keeps no variable, function or global between calls (“Each execute call runs in a fresh sandbox, not a REPL”)', async () => {
    const runtime = makeAgentRuntime({})
    const first = await runtime.execute({
      program: 'globalThis.kept = 1; var leaked = 2; return typeof kept',
    })
    expect(first).toMatchObject({ ok: true, value: 'number' })
    const second = await runtime.execute({ program: 'return [typeof kept, typeof leaked]' })
    expect(second).toMatchObject({ ok: true, value: ['undefined', 'undefined'] })
  })

  it('offers no network, no filesystem, no module loader and no raw host hooks (“Transport aliases and flat operation tables remain host-only implementation details”; “disables guest network access, binds only the supplied operations”; “this entry provides no host-fetch fallback”)', async () => {
    const runtime = makeAgentRuntime({})
    const result = await runtime.execute({
      program: `return [typeof fetch, typeof XMLHttpRequest, typeof require, typeof process, typeof Bun,
        typeof std, typeof os, typeof globalThis.__myceloCall, typeof globalThis.__myceloForage]`,
    })
    expect(result).toMatchObject({ ok: true, value: Array(9).fill('undefined') })
  })

  it('stops a program past its memory limit as a guest failure (“Host-wide memory limits remain host configuration; they are not a guest-widenable sandbox setting”)', async () => {
    const runtime = makeAgentRuntime({ execution: { limits: { memoryBytes: 4 * 1024 * 1024 } } })
    const result = failed(await runtime.execute({ program: 'return "x".repeat(1 << 24).length' }))
    expect(result.failure.kind).toBe('GuestException')
  })
})

describe('the stack limit', () => {
  it('stops unbounded recursion as a guest failure, and the next call runs clean', async () => {
    const runtime = makeAgentRuntime({})
    const result = failed(await runtime.execute({ program: 'const f = (n) => f(n + 1) + 1; return f(0)' }))
    expect(result.failure.kind).toBe('GuestException')
    expect(await runtime.execute({ program: 'return 2' })).toMatchObject({ ok: true, value: 2 })
  })
})

describe('invocation context', () => {
  it('gives every registered call a frozen context, ordinals allocated at call time, forage taking none (“a frozen InvocationContext with a zero-based operationOrdinal”; “One counter spans all registered methods and modules in an execute”; “sequential calls and concurrently started calls have distinct positions”; “discovery helpers do not consume registered-operation positions”; “The counter resets for each execute attempt”; “gives the same ordinals even though executionId is fresh”; “toolCallId and operationOrdinal”)', async () => {
    const { module, contexts } = notesModule()
    const runtime = makeAgentRuntime({ modules: [module] })
    const program = `
      forage.search('notes')
      await env.notes.add({ text: 'a' })
      forage.describe('notes.add')
      await Promise.all([env.notes.list({}), env.notes.add({ text: 'b' }), env.notes.list({})])
      return null`
    const first = await runtime.execute({ program, toolCallId: 'call-7' })
    expect(first.ok).toBe(true)
    expect(contexts.map((context) => context.operationOrdinal)).toEqual([0, 1, 2, 3])
    expect(contexts.every((context) => Object.isFrozen(context))).toBe(true)
    expect(new Set(contexts.map((context) => context.executionId))).toEqual(new Set([first.executionId]))
    expect(contexts.every((context) => context.toolCallId === 'call-7')).toBe(true)
    // A replay of the same sequence gets the same ordinals under a fresh executionId.
    const second = await runtime.execute({ program })
    const replay = contexts.slice(4)
    expect(replay.map((context) => context.operationOrdinal)).toEqual([0, 1, 2, 3])
    expect(replay[0]!.executionId).toBe(second.executionId)
    expect(second.executionId).not.toBe(first.executionId)
    expect('toolCallId' in replay[0]!).toBe(false)
  })
})

describe('forage', () => {
  it('searches and describes the bounded catalogue under complete logical paths (“Forage prepares the bounded discovery catalog for the captured graph”; “Every leaf keeps its declared input/output types”)', async () => {
    const { module } = notesModule()
    const apps = defineModule({ id: 'bazaar', namespace: ['apps'], operations: { windows: module } })
    const runtime = makeAgentRuntime({ modules: [apps] })
    const result = await runtime.execute({
      program: `return { found: forage.search('windows list'), one: forage.describe('apps.bazaar.windows.add'),
        missing: (() => { try { forage.describe('nope') } catch (e) { return e.name } })() }`,
    })
    if (!result.ok) throw new Error(result.message)
    const value = result.value as { found: unknown[]; one: Record<string, unknown>; missing: string }
    expect(value.found).toEqual([
      {
        path: 'apps.bazaar.windows.list',
        call: 'env.apps.bazaar.windows.list(input)',
        description: 'Every note',
        access: 'read',
        confirm: false,
      },
    ])
    expect(value.one).toMatchObject({ module: 'bazaar', operation: 'windows.add', access: 'write' })
    expect(value.one.input).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string', minLength: 1 } },
    })
    expect(value.missing).toBe('NotFound')
  })
})

describe('the depth-1 forms', () => {
  it('calls an operation bare or under env (“the existing demo.ping(...) form also works”)', async () => {
    const demo = defineModule({
      id: 'demo',
      operations: { ping: { access: 'read', input: z.object({}), output: z.string(), run: () => 'pong' } },
    })
    const runtime = makeAgentRuntime({ modules: [demo] })
    const result = await runtime.execute({
      program: 'return [await demo.ping({}), await env.demo.ping({}), demo === env.demo]',
    })
    expect(result).toMatchObject({ ok: true, value: ['pong', 'pong', true] })
  })

  it('leaves a global alone when a namespace shares its name: only env reaches that module', async () => {
    const json = defineModule({
      id: 'JSON',
      operations: { ping: { access: 'read', input: z.object({}), output: z.string(), run: () => 'pong' } },
    })
    const runtime = makeAgentRuntime({ modules: [json] })
    const result = await runtime.execute({
      program: 'return [typeof JSON.stringify, typeof JSON.ping, await env.JSON.ping({})]',
    })
    expect(result).toMatchObject({ ok: true, value: ['function', 'undefined', 'pong'] })
  })

  it('lists the catalogue under a path (“Forage search, list and describe use the complete logical path”)', async () => {
    const { module } = notesModule()
    const apps = defineModule({ id: 'bazaar', namespace: ['apps'], operations: { windows: module } })
    const runtime = makeAgentRuntime({ modules: [apps, notesModule('other').module] })
    const result = await runtime.execute({
      program: `return { all: forage.list().map((e) => e.path), under: forage.list('apps.bazaar'),
        none: forage.list('apps.baz') }`,
    })
    if (!result.ok) throw new Error(result.message)
    const value = result.value as { all: string[]; under: Record<string, unknown>[]; none: unknown[] }
    expect(value.all).toEqual([
      'apps.bazaar.windows.add',
      'apps.bazaar.windows.clear',
      'apps.bazaar.windows.list',
      'other.add',
      'other.clear',
      'other.list',
    ])
    expect(value.under[0]).toEqual({
      path: 'apps.bazaar.windows.add',
      call: 'env.apps.bazaar.windows.add(input)',
      description: 'Adds a note',
      access: 'write',
      confirm: false,
    })
    // A prefix is whole segments: apps.baz is not apps.bazaar.
    expect(value.none).toEqual([])
  })
})

describe('the typed failure channel', () => {
  const reports: SandboxFailureReport[] = []
  const broken = brokenModule('database password is hunter2')

  const runtime = makeAgentRuntime({ modules: [broken], onSandboxFailure: (report) => reports.push(report) })

  it('names a syntax error and a guest exception (“syntax errors, guest exceptions”)', async () => {
    expect(failed(await runtime.execute({ program: 'return (' })).failure.kind).toBe('SyntaxError')
    const thrown = failed(await runtime.execute({ program: 'throw new TypeError("mine")' }))
    expect(thrown.failure).toEqual({ kind: 'GuestException', detail: 'TypeError: mine' })
  })

  it('reports a failed capability to the host with evidence, and to the model only by reference (“The host receives operator evidence through onSandboxFailure”; “Preserve that evidence without sending host diagnostics to the guest”)', async () => {
    reports.length = 0
    const result = failed(await runtime.execute({ program: 'return await env.broken.explode({})' }))
    expect(result.failure).toEqual({ kind: 'CapabilityFailed', module: 'broken', operation: 'explode' })
    expect(result.message).toBe(sandboxFailureMessage(result.failure, result.reference))
    expect(result.message).toContain(result.reference)
    expect(result.message).not.toContain('hunter2')
    expect(reports).toHaveLength(1)
    expect(reports[0]).toMatchObject({ reference: result.reference, executionId: result.executionId })
    expect(JSON.stringify(reports[0]!.evidence)).toBe(JSON.stringify(reports[0]!.evidence))
    expect(String((reports[0]!.evidence as { faults: { evidence: Error }[] }).faults[0]!.evidence)).toContain(
      'hunter2',
    )
  })

  it('bounds the message the model reads, keeping its reference, however long the guest made it (“The model receives the bounded sandboxFailureMessage projection with a reference”)', async () => {
    const long = failed(await runtime.execute({ program: 'throw new Error("x".repeat(20000))' }))
    expect(long.message.length).toBeLessThanOrEqual(MESSAGE_LIMIT)
    expect(long.message).toEndWith(`(reference ${long.reference})`)
    expect(long.message).toContain(`The program threw: Error: ${'x'.repeat(400)}`)
    // Words a catalogue gives may be longer still: the reference survives the cut all the same.
    const wordy = sandboxFailureMessage(long.failure, long.reference, (key, params) =>
      key === 'withReference' ? `${params.message} (ref ${params.reference})` : `${key}: ${'y'.repeat(5000)}`,
    )
    expect(wordy.length).toBeLessThanOrEqual(MESSAGE_LIMIT)
    expect(wordy).toEndWith(`(reference ${long.reference})`)
  })

  it('words the message through the host’s words when given, with the failure’s facts', async () => {
    const worded = makeAgentRuntime({
      failureWords: (key, params) =>
        key === 'withReference'
          ? `${params.message} [${params.reference}]`
          : `${key} ${JSON.stringify(params)}`,
    })
    const result = failed(await worded.execute({ program: 'return (' }))
    expect(result.message).toStartWith('SyntaxError {"detail":')
    expect(result.message).toEndWith(`[${result.reference}]`)
  })

  it('lets a guest catch a failed capability and carry on', async () => {
    const result = await runtime.execute({
      program: 'try { await env.broken.explode({}) } catch (e) { return e.name + ": " + e.message }',
    })
    expect(result).toMatchObject({
      ok: true,
      value: 'CapabilityFailed: broken.explode failed on the host side',
    })
  })

  it('refuses a result JSON cannot carry, and one past the bound (“a bounded JSON result”; “invalid or oversized results”; “The canonical Mycelium invocation owner checks its JSON result budget”)', async () => {
    expect(failed(await runtime.execute({ program: 'return () => 1' })).failure.kind).toBe('InvalidResult')
    expect(failed(await runtime.execute({ program: 'return 10n' })).failure.kind).toBe('InvalidResult')
    expect(failed(await runtime.execute({ program: 'const a = {}; a.a = a; return a' })).failure.kind).toBe(
      'InvalidResult',
    )
    const small = makeAgentRuntime({ execution: { limits: { resultBytes: 100 } } })
    expect(failed(await small.execute({ program: 'return "x".repeat(200)' })).failure).toEqual({
      kind: 'OversizedResult',
      limitBytes: 100,
    })
    expect(await small.execute({ program: 'return "x".repeat(50)' })).toMatchObject({ ok: true })
  })
})

describe('deadline and cancellation', () => {
  it('starts no guest for a call aborted before it is dispatched (“An abort before dispatch starts no guest”)', async () => {
    const { module, notes, contexts } = notesModule()
    const runtime = makeAgentRuntime({ modules: [module] })
    const caller = new AbortController()
    caller.abort()
    const result = failed(
      await runtime.execute({
        program: `await env.notes.add({ text: 'never' }); return 1`,
        signal: caller.signal,
      }),
    )
    expect(result.failure).toEqual({ kind: 'Cancelled', by: 'caller' })
    expect(notes).toEqual([])
    expect(contexts).toEqual([])
    expect(runtime.admission.running).toBe(0)
  })

  it('stops while (true) {} at its deadline (“Execution has a deadline”; “deadline/cancellation”)', async () => {
    const runtime = makeAgentRuntime({ execution: { timeoutMs: 200 } })
    const result = failed(await runtime.execute({ program: 'while (true) {}' }))
    expect(result.failure).toEqual({ kind: 'DeadlineExceeded', timeoutMs: 200 })
    expect(result.acknowledged).toBe(true)
    expect(runtime.admission.running).toBe(0)
  })

  it('cancels for the caller, and says so when a backing call has not settled within the grace (“If the sandbox ignores it, the result reports acknowledged: false”) (“a cancellation acknowledgement grace”; “Cancellation aborts the invocation signal and waits for backing sandbox settlement”; “A permit remains owned until actual backing settlement, including after an unacknowledged abort”; “An abort during execution remains authoritative after backing settlement”; “an abort does not release custody early”)', async () => {
    const held = gate<string>()
    let called = false
    let sawAbort = false
    const slow = defineModule({
      id: 'slow',
      operations: {
        wait: {
          access: 'read',
          input: z.object({}),
          output: z.string(),
          run: (_input, context) => {
            called = true
            context.signal.addEventListener('abort', () => {
              sawAbort = true
            })
            return held.promise
          },
        },
      },
    })
    const runtime = makeAgentRuntime({
      modules: [slow],
      execution: { cancelGraceMs: 20, sandboxCapacity: 1 },
    })
    const caller = new AbortController()
    const pending = runtime.execute({ program: 'return await env.slow.wait({})', signal: caller.signal })
    // Cancelled once the backing call runs (the program's call crosses from its worker first).
    while (!called) await Bun.sleep(5)
    caller.abort()
    while (!sawAbort) await Bun.sleep(5)
    const result = failed(await pending)
    expect(result.failure).toEqual({ kind: 'Cancelled', by: 'caller' })
    expect(result.acknowledged).toBe(false)
    // The permit stays owned until the backing call really settles.
    expect(runtime.admission.running).toBe(1)
    held.open('late')
    while (runtime.admission.running !== 0) await Bun.sleep(5)
    expect(runtime.admission.running).toBe(0)
  })
})
