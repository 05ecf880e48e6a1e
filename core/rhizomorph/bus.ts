import { type IncomingMessage, parseCommand } from '@mycelo/septum'
import type { Admission, AdmissionChain } from '../admission/chain.ts'
import type { PrincipalSnapshot } from '../identity/directory.ts'
import { CommandDispatch } from './commands.ts'
import type { SporeContexts } from './contexts.ts'
import type { Step } from './dispatch-types.ts'
import { MessagesInFlight } from './in-flight-messages.ts'
import { describe } from './listeners.ts'
import { normalise } from './normalise.ts'
import type { CoreRuntime } from './runtime.ts'

const DONE: Promise<void> = Promise.resolve()

/** Messages a hypha may emit while connecting, before admission is ready; later ones are dropped. */
const HELD_BEFORE_ADMISSION = 256
/** The whole path's bound: past it a message is dropped with a log line rather than queued. */
const MESSAGES_IN_FLIGHT = 10_000

/** What watches the message path from outside it: the /metrics counters. */
export interface PathObserver {
  admitted(): void
  handled(seconds: number): void
}

interface Held {
  readonly hypha: string
  readonly input: unknown
  readonly done: () => void
}

/**
 * The message path: normalise → admit → record the conversation → resolve the principal and the
 * locale → parse; then the command's own steps (CommandDispatch: route → authorise → capabilities →
 * context rules → dispatch → reply). Every refusal after admission is answered in the reader's
 * locale; admission's is silent.
 */
export class Rhizomorph {
  readonly #runtime: CoreRuntime
  readonly #admission: AdmissionChain
  readonly #inFlight = new MessagesInFlight()
  readonly #commands: CommandDispatch
  /** Messages emitted before the inhibitors started, replayed through admission once they have. */
  readonly #held: Held[] = []
  #admissionOpen = false
  #closing = false
  #observer: PathObserver | undefined

  constructor(options: { runtime: CoreRuntime; contexts: SporeContexts; admission: AdmissionChain }) {
    const runtime = options.runtime
    this.#runtime = runtime
    this.#admission = options.admission
    this.#commands = new CommandDispatch(runtime, options.contexts)
  }

  /**
   * Called once the inhibitors have started. Until then a message is held, never dispatched:
   * nothing may reach an enzyme before admission can judge it.
   */
  openAdmission(): void {
    this.#admissionOpen = true
    for (const { hypha, input, done } of this.#held.splice(0)) this.emit(hypha, input).then(done)
  }

  /** A hypha's `emit`: resolves once the message is handled and never rejects. */
  readonly emit = (hypha: string, input: unknown): Promise<void> => {
    if (this.#closing) {
      this.#runtime.logger.debug('message ignored: shutting down', { hypha })
      return DONE
    }
    if (!this.#admissionOpen) return this.#hold(hypha, input)
    // One clock read per message serves its timing and its conversation's last_seen.
    return this.#dispatch(hypha, input, performance.now())
  }

  /**
   * Hands every message's outcome to `observer` (the /metrics counters): each admitted one, and
   * each handled, timed from emit to handled. A message held before admission opened counts once.
   */
  observe(observer: PathObserver): void {
    this.#observer = observer
  }

  /** `started` (performance.now() at emit) times the message until it is handled, however that went. */
  #dispatch(hypha: string, input: unknown, started: number): Promise<void> {
    if (this.#inFlight.count >= MESSAGES_IN_FLIGHT) {
      this.#runtime.logger.warn('message dropped: too many messages in flight', {
        hypha,
        limit: MESSAGES_IN_FLIGHT,
      })
      this.#handled(started)
      return DONE
    }
    let step: Step
    try {
      step = this.#handle(hypha, input, started)
    } catch (error) {
      this.#failed(hypha, error)
      step = undefined
    }
    if (!(step instanceof Promise)) {
      this.#handled(started)
      return DONE
    }
    return this.#awaited(hypha, step, started)
  }

  /**
   * A message not handled at once, counted until it is; the observer is told by the same turn that
   * stops counting it. The hypha waits on the step itself, not on a promise made from it: its wait
   * ends in the turn the step settles (the count is left first, being the step's first reaction),
   * one turn sooner. That is safe because no step rejects (see Step). Its own method, so that the
   * closures here are made only for such a message.
   */
  #awaited(hypha: string, step: Promise<void>, started: number): Promise<void> {
    this.#inFlight.enter()
    step.then(
      () => {
        this.#inFlight.leave()
        this.#handled(started)
      },
      (error: unknown) => {
        // Never expected (every step catches its own failures); logged rather than lost if one did not.
        this.#failed(hypha, error)
        this.#inFlight.leave()
        this.#handled(started)
      },
    )
    return step
  }

  #handled(started: number): void {
    if (this.#observer !== undefined) this.#observer.handled((performance.now() - started) / 1000)
  }

  #hold(hypha: string, input: unknown): Promise<void> {
    if (this.#held.length >= HELD_BEFORE_ADMISSION) {
      this.#runtime.logger.warn('message dropped: admission is not ready yet', {
        hypha,
        held: this.#held.length,
      })
      return DONE
    }
    return new Promise<void>((done) => this.#held.push({ hypha, input, done }))
  }

  /** Takes no new message and waits, up to `timeoutMs`, for the ones in flight to be answered. */
  async close(timeoutMs: number): Promise<void> {
    this.#closing = true
    for (const { done } of this.#held.splice(0)) done()
    if (await this.#inFlight.drained(timeoutMs)) return
    this.#runtime.logger.warn('shutting down with messages still in flight', { count: this.#inFlight.count })
  }

  #failed(hypha: string, error: unknown): void {
    this.#runtime.logger.error('the message path failed', { hypha, error: describe(error) })
  }

  #handle(hypha: string, input: unknown, started: number): Step {
    const { config, logger } = this.#runtime
    const message = normalise(hypha, input, config.maxMessageLength)
    if (typeof message === 'string') {
      logger.warn('message dropped', { hypha, problem: message })
      return
    }
    const admission = this.#admission.admit(message)
    if (admission instanceof Promise) return this.#judged(admission, message, started)
    return this.#admitted(admission, message, started)
  }

  /** Admission that waited on an inhibitor; whatever fails on the way is logged, never rejected (see Step). */
  #judged(admission: Promise<Admission>, message: IncomingMessage, started: number): Promise<void> {
    return admission.then(
      (judged) => {
        try {
          return this.#admitted(judged, message, started)
        } catch (error) {
          this.#failed(message.channel, error)
        }
      },
      (error: unknown) => this.#failed(message.channel, error),
    )
  }

  /** `started`: when the message was emitted (performance.now()), which is when its conversation was seen. */
  #admitted(admission: Admission, message: IncomingMessage, started: number): Step {
    if (!admission.admitted) return
    this.#observer?.admitted()
    const { config, conversations, directory, listeners } = this.#runtime
    const known = directory.recall(message.sender)
    const met = known === undefined ? this.#meet(message, started) : undefined
    const principal = known ?? met!.principal
    const conversationLocale =
      known === undefined ? met!.conversationLocale : conversations.record(message, started)
    const locale = conversationLocale ?? principal.locale ?? config.defaultLocale
    const parsed = parseCommand(message.text, config.prefix)
    const commanded = parsed ? this.#commands.run({ message, principal, locale, parsed }) : undefined
    if (listeners.size === 0) return commanded
    return this.#notify(commanded, message)
  }

  /** First contact: the newcomer's conversation and person are written in one commit. */
  #meet(
    message: IncomingMessage,
    started: number,
  ): { principal: PrincipalSnapshot; conversationLocale: string | undefined } {
    const { conversations, directory } = this.#runtime
    let conversationLocale: string | undefined
    const principal = directory.meet(message.sender, () => {
      conversationLocale = conversations.record(message, started)
    })
    return { principal, conversationLocale }
  }

  /** The spores listening to every message hear it once its command (if any) was handled. */
  #notify(commanded: Step, message: IncomingMessage): Promise<void> {
    const { listeners, logger } = this.#runtime
    return Promise.resolve(commanded).then(() => listeners.notify(message, logger))
  }
}
