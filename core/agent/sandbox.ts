import variant from '@jitl/quickjs-wasmfile-release-sync'
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSContext,
  type QuickJSDeferredPromise,
  type QuickJSHandle,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core'
import { COMPILED, shippedPath } from '../boot/shipped.ts'
import { SandboxFailureError } from './failure.ts'
import { GUEST_ERROR, guestPrelude, guestProgram, type HostAnswer, INVALID_RESULT } from './guest.ts'

/** Per-sandbox limits: the guest cannot widen them. */
export interface SandboxLimits {
  readonly memoryBytes: number
  readonly stackBytes: number
  readonly resultBytes: number
  /** Host calls one program may have waiting at once; the next one stops it. */
  readonly hostCallsInFlight: number
  /** Host calls one program may make in all; the next one stops it. */
  readonly hostCalls: number
}

export const DEFAULT_LIMITS: SandboxLimits = Object.freeze({
  memoryBytes: 32 * 1024 * 1024,
  stackBytes: 512 * 1024,
  resultBytes: 64 * 1024,
  hostCallsInFlight: 32,
  hostCalls: 1_000,
})

/** What the guest may reach: the callable paths, and nothing else of the host. */
export interface GuestBindings {
  readonly paths: readonly string[]
  call(path: string, input: unknown): Promise<HostAnswer>
  forage(kind: string, argument: unknown): HostAnswer
}

export interface SandboxRun {
  readonly program: string
  readonly bindings: GuestBindings
  readonly limits: SandboxLimits
  /** Aborted at the deadline or by the caller: the interrupt handler stops the guest on it. */
  readonly signal: AbortSignal
  /** Epoch ms: a guest busy in synchronous code cannot see a timer fire, so the handler reads the clock. */
  readonly deadlineAt: number
  /** Read by the interrupt handler too: a stop another thread asks for while the guest never yields. */
  readonly halted?: () => boolean
}

/** A started sandbox: its answer, and the moment its backing work (host calls included) is over. */
export interface RunningSandbox {
  /** The result as JSON text; rejects with a SandboxFailureError, or `Aborted` once the signal fires. */
  readonly result: Promise<string>
  readonly settled: Promise<void>
}

export class Aborted extends Error {
  override readonly name = 'Aborted'
}

let loading: Promise<QuickJSWASMModule> | undefined

/**
 * The WebAssembly module, compiled once per thread; each run gets its own runtime and context.
 * A sandbox worker gives it a memory with a maximum: QuickJS's own limit cannot see every
 * allocation in this build, and the WebAssembly memory's ceiling can.
 */
export function quickJs(memory?: WebAssembly.Memory): Promise<QuickJSWASMModule> {
  loading ??= newQuickJSWASMModuleFromVariant(
    newVariant(variant, {
      ...(memory ? { wasmMemory: memory } : {}),
      // The variant finds its .wasm beside its own module, which an executable does not have on disk.
      ...(COMPILED ? { wasmLocation: shippedPath(QUICKJS_WASM) } : {}),
    }),
  )
  return loading
}

const QUICKJS_WASM = 'node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm'

/**
 * Runs a program in a fresh QuickJS runtime: no network, no filesystem, no state from earlier
 * runs. The runtime is disposed only once every host call it started has settled.
 */
export async function startSandbox(run: SandboxRun): Promise<RunningSandbox> {
  const module = await quickJs()
  const runtime = module.newRuntime()
  runtime.setMemoryLimit(run.limits.memoryBytes)
  runtime.setMaxStackSize(run.limits.stackBytes)
  runtime.setInterruptHandler(() => stopped(run))
  const context = runtime.newContext()
  const pending = new Set<QuickJSDeferredPromise>()
  let inFlight = 0
  let finished = false
  let markSettled!: () => void
  const settled = new Promise<void>((resolve) => {
    markSettled = resolve
  })
  const disposeWhenIdle = () => {
    if (!finished || inFlight > 0) return
    for (const deferred of pending) deferred.dispose()
    pending.clear()
    context.dispose()
    runtime.dispose()
    markSettled()
  }
  const pump = () => {
    if (finished) return
    const jobs = runtime.executePendingJobs()
    if (jobs.error) jobs.error.dispose()
  }
  installHooks(context, run.bindings, {
    started: (deferred) => {
      pending.add(deferred)
      inFlight++
    },
    done: (deferred, answer) => {
      inFlight--
      pending.delete(deferred)
      if (!finished && context.alive) {
        const text = context.newString(JSON.stringify(answer))
        deferred.resolve(text)
        text.dispose()
        pump()
      }
      deferred.dispose()
      disposeWhenIdle()
    },
  })
  const result = evaluate(context, run).finally(() => {
    finished = true
    disposeWhenIdle()
  })
  pump()
  return { result, settled }
}

interface HookEvents {
  started(deferred: QuickJSDeferredPromise): void
  done(deferred: QuickJSDeferredPromise, answer: HostAnswer): void
}

function installHooks(context: QuickJSContext, bindings: GuestBindings, events: HookEvents): void {
  const call = context.newFunction('__myceloCall', (pathHandle, inputHandle) => {
    const path = context.getString(pathHandle)
    const input = JSON.parse(context.getString(inputHandle))
    const deferred = context.newPromise()
    events.started(deferred)
    bindings.call(path, input).then(
      (answer) => events.done(deferred, answer),
      () => events.done(deferred, { ok: false, name: 'Error', message: 'the host call failed' }),
    )
    return deferred.handle
  })
  const forage = context.newFunction('__myceloForage', (kindHandle, argumentHandle) => {
    const answer = bindings.forage(
      context.getString(kindHandle),
      JSON.parse(context.getString(argumentHandle)),
    )
    return context.newString(JSON.stringify(answer))
  })
  context.setProp(context.global, '__myceloCall', call)
  context.setProp(context.global, '__myceloForage', forage)
  call.dispose()
  forage.dispose()
}

async function evaluate(context: QuickJSContext, run: SandboxRun): Promise<string> {
  const prelude = context.evalCode(guestPrelude(run.bindings.paths), 'prelude.js')
  if (prelude.error) {
    const fault = context.dump(prelude.error)
    prelude.error.dispose()
    throw new SandboxFailureError({ kind: 'BadResponse' }, fault)
  }
  const finish = prelude.value
  const evaluated = context.evalCode(guestProgram(run.program), 'program.js')
  if (evaluated.error) {
    finish.dispose()
    throw guestFault(context, evaluated.error, run)
  }
  const finished = context.callFunction(finish, context.undefined, evaluated.value)
  finish.dispose()
  evaluated.value.dispose()
  if (finished.error) throw guestFault(context, finished.error, run)
  const answer = await settle(context, finished.value, run)
  // The interrupt surfaces inside the async body as a rejection the wrapper caught: it is still the stop.
  if (answer.startsWith(GUEST_ERROR) && stopped(run)) throw new Aborted()
  return judge(answer, run.limits.resultBytes)
}

/** The guest's answer, or Aborted as soon as the signal fires (a guest awaiting a host call never settles). */
function settle(context: QuickJSContext, handle: QuickJSHandle, run: SandboxRun): Promise<string> {
  const { signal } = run
  const native = context.resolvePromise(handle)
  handle.dispose()
  return new Promise<string>((resolve, reject) => {
    const onAbort = () => reject(new Aborted())
    if (signal.aborted) onAbort()
    signal.addEventListener('abort', onAbort, { once: true })
    native.then((outcome) => {
      signal.removeEventListener('abort', onAbort)
      // A stopped run is disposed once its host calls settle; an answer the guest still produced
      // after that has nowhere to go (and its handles are gone with the context).
      if (!context.alive) return
      if (outcome.error) return reject(guestFault(context, outcome.error, run))
      const text = context.getString(outcome.value)
      outcome.value.dispose()
      resolve(text)
    })
  })
}

function judge(answer: string, resultBytes: number): string {
  if (answer === INVALID_RESULT) throw new SandboxFailureError({ kind: 'InvalidResult' })
  if (answer.startsWith(GUEST_ERROR)) {
    const { name, message, fault } = JSON.parse(answer.slice(GUEST_ERROR.length)) as {
      name: string
      message: string
      fault?: number
    }
    throw new SandboxFailureError(
      { kind: 'GuestException', detail: `${name}: ${message}` },
      { name, message },
      fault,
    )
  }
  if (Buffer.byteLength(answer) > resultBytes) {
    throw new SandboxFailureError({ kind: 'OversizedResult', limitBytes: resultBytes })
  }
  return answer
}

function guestFault(context: QuickJSContext, handle: QuickJSHandle, run: SandboxRun): Error {
  const dumped = context.dump(handle) as { name?: string; message?: string } | undefined
  handle.dispose()
  if (stopped(run)) return new Aborted()
  const name = String(dumped?.name ?? 'Error')
  const detail = `${name}: ${String(dumped?.message ?? dumped)}`
  if (name === 'SyntaxError') return new SandboxFailureError({ kind: 'SyntaxError', detail }, dumped)
  // Out of memory or stack, or any other engine-level stop: the guest's own doing.
  return new SandboxFailureError({ kind: 'GuestException', detail }, dumped)
}

function stopped(run: SandboxRun): boolean {
  return run.signal.aborted || Date.now() >= run.deadlineAt || run.halted?.() === true
}
