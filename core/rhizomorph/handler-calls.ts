import { bindArgs, type CodeCommand, type Enzyme, type Logger } from '@mycelo/septum'
import { ownMember } from '../germination/implementation.ts'
import { type Actor, callAs } from '../mycelium/actor.ts'
import { isThenable } from '../supervision/deadline.ts'
import { Watch, watchFor } from '../supervision/deadline-lines.ts'
import { InFlight } from '../supervision/in-flight.ts'
import type { SporeContexts } from './contexts.ts'
import type { CommandTurn, DispatchCapabilities, Step } from './dispatch-types.ts'
import { describe } from './listeners.ts'
import type { Route } from './routes.ts'

/** Handlers one enzyme may have running at once; a stuck one answers busy past it. */
const HANDLERS_IN_FLIGHT = 64
/** What #call answers when the enzyme has HANDLERS_IN_FLIGHT handlers running already. */
const BUSY: unique symbol = Symbol('busy')

export interface HandlerCallsOptions {
  readonly contexts: SporeContexts
  readonly logger: Logger
  /** The handler deadline, read at every call (the configuration may change it). */
  readonly deadlineMs: () => number
  /** Answers a turn with one of the core's refusals (busy, too slow, failed). */
  readonly refuse: (turn: CommandTurn, key: string) => Step
}

/**
 * Calls the handler of a `code:` command on behalf of the person who sent it. A handler that
 * answers at once costs no promise here; one that answers later is followed by one deadline watch
 * (no timer of its own, no promise race), and its throw, rejection or lateness is logged and
 * answered, never let out.
 */
export class HandlerCalls {
  readonly #options: HandlerCallsOptions
  /** Handlers still running per enzyme, abandoned ones included. */
  readonly #handling: InFlight

  constructor(options: HandlerCallsOptions) {
    this.#options = options
    this.#handling = new InFlight(HANDLERS_IN_FLIGHT, (spore, limit) =>
      options.logger.warn('an enzyme has too many handlers still running; answering busy', { spore, limit }),
    )
  }

  run(route: Route, declared: CodeCommand, turn: CommandTurn, capabilities: DispatchCapabilities): Step {
    let running: unknown
    try {
      running = this.#call(route, declared, turn, capabilities)
    } catch (error) {
      return this.failed({ route, declared, turn, ms: 0 }, error)
    }
    if (running === BUSY) return this.#options.refuse(turn, 'reply.busy')
    if (!isThenable(running)) return
    return this.#pending(new PendingHandler(this, route, declared, turn, this.#options.deadlineMs()), running)
  }

  /**
   * Calls the handler as its actor: what it returned, or BUSY when its enzyme has no slot left.
   * Apart from run(), so that each stays small enough for JSC to compile early (see CommandDispatch.run).
   */
  #call(route: Route, declared: CodeCommand, turn: CommandTurn, capabilities: DispatchCapabilities): unknown {
    const plugin = route.plugin
    const handlers = (route.spore.instance as Enzyme).handlers
    const handler = ownMember(handlers, declared.code)
    if (typeof handler !== 'function') throw new Error(`no handler named "${declared.code}"`)
    const invocation = {
      command: declared.name,
      args: bindArgs(route.argNames, turn.parsed),
      rest: turn.parsed.rest,
      message: turn.message,
    }
    const context = this.#options.contexts.handler(route.spore, turn, capabilities)
    const actor: Actor = {
      kind: 'principal',
      principalId: turn.principal.id,
      channel: turn.message.channel,
      spore: plugin,
      locale: turn.locale,
    }
    if (!this.#handling.enter(plugin)) return BUSY
    let running: unknown
    try {
      running = callAs(actor, handler as (a: unknown, b: unknown) => unknown, handlers, invocation, context)
    } finally {
      // A handler that returned (or threw) at once holds no slot; one still running does, deadline or not.
      if (!isThenable(running)) this.#handling.leave(plugin)
    }
    return running
  }

  /** A handler still running: answered by the first of its settling and its deadline. */
  #pending(pending: PendingHandler, running: PromiseLike<unknown>): Promise<void> {
    watchFor(pending.ms, pending)
    follow(pending, running)
    return pending.answer
  }

  /** The handler settled: its slot is free, whether or not its deadline had passed. */
  left(plugin: string): void {
    this.#handling.leave(plugin)
  }

  /** Its deadline passed: logged with the spore and the step, and the person told it was too slow. */
  late(call: HandlerCall): Step {
    const { route, declared, turn, ms } = call
    this.#options.logger.warn('deadline passed', {
      spore: route.plugin,
      step: `handler ${declared.code}()`,
      ms,
      command: declared.name,
    })
    return this.#options.refuse(turn, 'reply.tooSlow')
  }

  /** It threw or rejected: logged for the operator, with where it threw, and the person told it failed. */
  failed(call: HandlerCall, error: unknown): Step {
    const { route, declared, turn } = call
    this.#options.logger.error('a command handler failed', {
      spore: route.plugin,
      command: declared.name,
      error: describe(error),
      ...(error instanceof Error && error.stack ? { stack: error.stack } : {}),
    })
    return this.#options.refuse(turn, 'reply.failed')
  }
}

/** One handler call, as its log lines and refusals name it. */
interface HandlerCall {
  readonly route: Route
  readonly declared: CodeCommand
  readonly turn: CommandTurn
  /** Its deadline. */
  readonly ms: number
}

/**
 * A handler still running, watched until its deadline: the first of its settling and the deadline
 * answers the message; what it settles to after its deadline is ignored (its slot is freed then).
 */
class PendingHandler extends Watch implements HandlerCall {
  readonly #calls: HandlerCalls
  /** The message's answer, settled by the first of the handler's settling and its deadline. */
  readonly answer: Promise<void>
  #answered: Answer | undefined

  constructor(
    calls: HandlerCalls,
    readonly route: Route,
    readonly declared: CodeCommand,
    readonly turn: CommandTurn,
    /** Its deadline. */
    readonly ms: number,
  ) {
    super()
    this.#calls = calls
    // The executor runs before the constructor goes on; a shared one makes no closure per call.
    opening = this
    this.answer = new Promise<void>(open)
    opening = undefined
  }

  /** Takes the answer's resolve (see the constructor). */
  opened(answered: Answer): void {
    this.#answered = answered
  }

  settled(failed: boolean, error: unknown): void {
    this.#calls.left(this.route.plugin)
    if (!this.release()) return
    this.#answered!(failed ? this.#calls.failed(this, error) : undefined)
  }

  expire(): void {
    this.#answered!(this.#calls.late(this))
  }
}

/** The pending handler whose answer is being made: set only while its executor runs. */
let opening: PendingHandler | undefined

function open(answered: Answer): void {
  opening!.opened(answered)
}

/**
 * Tells the pending handler how its handler settled. An async function rather than two closures
 * given to then(): awaiting makes no function and no scope for the call.
 */
async function follow(pending: PendingHandler, running: PromiseLike<unknown>): Promise<void> {
  try {
    await running
  } catch (error) {
    pending.settled(true, error)
    return
  }
  pending.settled(false, undefined)
}

/** Settles the message's answer: at once, or once the refusal it was given is sent. */
type Answer = (outcome: Step) => void
