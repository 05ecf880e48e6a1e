import { SandboxFailureError } from './failure.ts'

/** Host-only facts; a guest submits code and nothing else. */
export interface SandboxAdmissionOptions {
  /** How many sandboxes may run at once: a positive safe integer; derived from the cores when omitted. */
  readonly sandboxCapacity?: number
  /** How long a program may wait for a sandbox: 1..900,000 ms, 5,000 when omitted. */
  readonly admissionWaitMs?: number
}

export interface SandboxAdmissionPolicy {
  readonly capacity: number
  readonly admissionWaitMs: number
}

export const DEFAULT_ADMISSION_WAIT_MS = 5_000
const MAX_ADMISSION_WAIT_MS = 900_000

/**
 * Validates and resolves the admission facts; reserves nothing. An omitted capacity is the core
 * count clamped to 2..32 (2 when there is no usable count); an explicit one is taken as given.
 */
export function normalizeSandboxAdmissionPolicy(
  options: SandboxAdmissionOptions = {},
  availableCores?: number,
): SandboxAdmissionPolicy {
  const { sandboxCapacity, admissionWaitMs = DEFAULT_ADMISSION_WAIT_MS } = options
  if (sandboxCapacity !== undefined && !(Number.isSafeInteger(sandboxCapacity) && sandboxCapacity > 0)) {
    throw new RangeError(`sandboxCapacity must be a positive safe integer, not ${String(sandboxCapacity)}`)
  }
  if (!Number.isInteger(admissionWaitMs) || admissionWaitMs < 1 || admissionWaitMs > MAX_ADMISSION_WAIT_MS) {
    throw new RangeError(`admissionWaitMs must be an integer from 1 to ${MAX_ADMISSION_WAIT_MS}`)
  }
  const cores = Number.isSafeInteger(availableCores) && availableCores! > 0 ? availableCores! : 2
  return Object.freeze({ capacity: sandboxCapacity ?? Math.min(32, Math.max(2, cores)), admissionWaitMs })
}

/** A held slot: released once, when the backing work has really settled. */
export interface Permit {
  release(): void
}

export interface AdmissionRequest {
  readonly signal: AbortSignal
  /** The invocation's own deadline (epoch ms): queueing never extends it. */
  readonly deadlineAt: number
  /** The invocation's timeout, for the failure that names it. */
  readonly timeoutMs: number
}

interface Waiter {
  grant(permit: Permit): void
}

/**
 * The runtime-wide count of running sandboxes. A waiter is queued before it waits and removed when
 * it gives up, so an expired or cancelled waiter can never start later.
 */
export class SandboxAdmission {
  readonly policy: SandboxAdmissionPolicy
  #running = 0
  readonly #queue: Waiter[] = []

  constructor(policy: SandboxAdmissionPolicy) {
    this.policy = policy
  }

  get running(): number {
    return this.#running
  }

  acquire(request: AdmissionRequest): Promise<Permit> {
    const { signal, deadlineAt, timeoutMs } = request
    if (signal.aborted) return Promise.reject(new SandboxFailureError({ kind: 'Cancelled', by: 'caller' }))
    if (this.#running < this.policy.capacity) {
      this.#running++
      return Promise.resolve(this.#permit())
    }
    const started = Date.now()
    const admissionAt = started + this.policy.admissionWaitMs
    return new Promise<Permit>((resolve, reject) => {
      const leave = (error: SandboxFailureError) => {
        const at = this.#queue.indexOf(waiter)
        if (at >= 0) this.#queue.splice(at, 1)
        clearTimeout(timer)
        signal.removeEventListener('abort', onAbort)
        reject(error)
      }
      const waiter: Waiter = {
        grant: (permit) => {
          clearTimeout(timer)
          signal.removeEventListener('abort', onAbort)
          resolve(permit)
        },
      }
      const onAbort = () => leave(new SandboxFailureError({ kind: 'Cancelled', by: 'caller' }))
      // The invocation deadline wins a tie: the caller's budget, not contention, ran out.
      const expireAt = Math.min(admissionAt, deadlineAt)
      const timer = setTimeout(
        () =>
          leave(
            new SandboxFailureError(
              deadlineAt <= admissionAt
                ? { kind: 'DeadlineExceeded', timeoutMs }
                : {
                    kind: 'SandboxBusy',
                    code: 'sandbox-busy',
                    capacity: this.policy.capacity,
                    waitedMs: Date.now() - started,
                  },
            ),
          ),
        Math.max(0, expireAt - started),
      )
      this.#queue.push(waiter)
      signal.addEventListener('abort', onAbort, { once: true })
    })
  }

  #permit(): Permit {
    let held = true
    return {
      release: () => {
        if (!held) return
        held = false
        const next = this.#queue.shift()
        // The slot passes straight to the next waiter: the count never drops and rises again.
        if (next !== undefined) next.grant(this.#permit())
        else this.#running--
      },
    }
  }
}
