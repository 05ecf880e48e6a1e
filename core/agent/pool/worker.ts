// A sandbox worker: runs one QuickJS program at a time off the bot's thread. Its host calls go to
// the bot as messages, bounded here in flight and in total, so a flood never leaves this thread.
declare const self: Worker

import { workerData } from 'node:worker_threads'
import type { SandboxFailure } from '../failure.ts'
import { SandboxFailureError } from '../failure.ts'
import { Forage } from '../forage.ts'
import type { HostAnswer } from '../guest.ts'
import { Aborted, quickJs, startSandbox } from '../sandbox.ts'
import {
  type FromWorker,
  INITIAL_BYTES,
  type RunOutcome,
  type ToWorker,
  type WorkerData,
} from './protocol.ts'

type Run = Extract<ToWorker, { kind: 'run' }>

const post = (message: FromWorker) => self.postMessage(message)
const PAGE = 64 * 1024
/** Every byte QuickJS can reach in this worker, whatever its own accounting misses. */
const memory = new WebAssembly.Memory({
  initial: INITIAL_BYTES / PAGE,
  maximum: Math.ceil(
    Math.max(INITIAL_BYTES, (workerData as WorkerData | undefined)?.memoryBytes ?? 0) / PAGE,
  ),
})
let catalog: Forage | undefined
/** The host calls of the current run waiting for the bot's answer, by sequence number. */
const waiting = new Map<number, (answer: HostAnswer) => void>()
let current: { readonly runId: number; readonly stop: AbortController } | undefined

self.onmessage = (event: MessageEvent<ToWorker>) => {
  const message = event.data
  if (message.kind === 'run') void run(message)
  else if (message.runId !== current?.runId) return
  else if (message.kind === 'answer') {
    const resolve = waiting.get(message.seq)
    waiting.delete(message.seq)
    resolve?.(message.answer)
  } else current.stop.abort()
}

async function run(message: Run): Promise<void> {
  const { runId, limits } = message
  const stop = new AbortController()
  current = { runId, stop }
  if (message.catalog.entries !== undefined) {
    catalog = new Forage(message.catalog.entries, message.catalog.version)
  }
  const forage = catalog?.version === message.catalog.version ? catalog : new Forage([])
  const flag = new Int32Array(message.stop)
  let limit: SandboxFailure | undefined
  let seq = 0
  let inFlight = 0
  const halt = (failure: SandboxFailure): Promise<HostAnswer> => {
    limit ??= failure
    stop.abort()
    return Promise.resolve({ ok: false, name: 'HostCallLimit', message: 'stopped' })
  }
  await quickJs(memory)
  const running = await startSandbox({
    program: message.program,
    limits,
    signal: stop.signal,
    deadlineAt: message.deadlineAt,
    halted: () => Atomics.load(flag, 0) !== 0 || limit !== undefined,
    bindings: {
      paths: message.paths,
      call(path, input) {
        if (seq >= limits.hostCalls)
          return halt({ kind: 'HostCallLimit', bound: 'total', limit: limits.hostCalls })
        if (inFlight >= limits.hostCallsInFlight) {
          return halt({ kind: 'HostCallLimit', bound: 'in-flight', limit: limits.hostCallsInFlight })
        }
        const at = seq++
        inFlight++
        return new Promise<HostAnswer>((resolve) => {
          waiting.set(at, (answer) => {
            inFlight--
            resolve(answer)
          })
          post({ kind: 'call', runId, seq: at, path, input })
        })
      },
      forage: (kind, argument) => forage.answer(kind, argument),
    },
  })
  const answered = running.result.then(
    (text) => post({ kind: 'result', runId, outcome: { ok: true, text } }),
    (error) => post({ kind: 'result', runId, outcome: outcomeOf(error, limit) }),
  )
  // The result goes first: the bot frees this worker on `settled`.
  await Promise.all([answered, running.settled])
  if (current?.runId === runId) current = undefined
  post({ kind: 'settled', runId, heapBytes: memory.buffer.byteLength })
}

function outcomeOf(error: unknown, limit: SandboxFailure | undefined): RunOutcome {
  if (limit !== undefined) return { ok: false, failure: limit }
  if (error instanceof Aborted) return { ok: false, aborted: true }
  if (error instanceof SandboxFailureError) {
    const { failure, evidence, fault } = error
    return { ok: false, failure, evidence: cloneable(evidence), ...(fault === undefined ? {} : { fault }) }
  }
  return { ok: false, failure: { kind: 'BadResponse' }, evidence: String(error) }
}

/** Evidence crosses as a structured clone: whatever cannot is sent as its text. */
function cloneable(evidence: unknown): unknown {
  try {
    return structuredClone(evidence)
  } catch {
    return String(evidence)
  }
}

// Compiled while the worker waits for its first program, not while that program waits.
void quickJs(memory)
