import { type IncomingMessage, isCodeCommand, type OutgoingContent, parseCommand } from '@mycelo/septum'
import type { Admission, AdmissionChain } from '../admission/chain.ts'
import type { PrincipalSnapshot } from '../identity/directory.ts'
import { patternsAllow } from '../identity/patterns.ts'
import { isFulfilled } from '../supervision/deadline.ts'
import type { SporeContexts } from './contexts.ts'
import type { CommandTurn, Step } from './dispatch-types.ts'
import { HandlerCalls } from './handler-calls.ts'
import { MessagesInFlight } from './in-flight-messages.ts'
import { describe } from './listeners.ts'
import { normalise } from './normalise.ts'
import type { Route } from './routes.ts'
import type { CoreRuntime } from './runtime.ts'
import { unknownCommandReply } from './suggest.ts'

const DONE: Promise<void> = Promise.resolve()

/** Messages a hypha may emit while connecting, before admission is ready; later ones are dropped. */
const HELD_BEFORE_ADMISSION = 256
/** The whole path's bound: past it a message is dropped with a log line rather than queued. */
const MESSAGES_IN_FLIGHT = 10_000
/** How long a command for a spore being restarted waits for it before being told to try again. */
const RESTART_WAIT_MS = 2_000

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
 * locale → parse → route → authorise → capabilities → context rules → dispatch → reply.
 * Every refusal after admission is answered in the reader's locale; admission's is silent.
 */
export class Rhizomorph {
  readonly #runtime: CoreRuntime
  readonly #admission: AdmissionChain
  readonly #inFlight = new MessagesInFlight()
  readonly #handlers: HandlerCalls
  /** Messages emitted before the inhibitors started, replayed through admission once they have. */
  readonly #held: Held[] = []
  #admissionOpen = false
  #closing = false
  #observer: PathObserver | undefined

  constructor(options: { runtime: CoreRuntime; contexts: SporeContexts; admission: AdmissionChain }) {
    const runtime = options.runtime
    this.#runtime = runtime
    this.#admission = options.admission
    this.#handlers = new HandlerCalls({
      contexts: options.contexts,
      logger: runtime.logger,
      deadlineMs: () => runtime.config.timeouts.handler,
      refuse: (turn, key) => this.#say(turn, key, { command: this.#named(turn) }),
    })
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
    const normalised = normalise(hypha, input, config.maxMessageLength)
    if (!normalised.ok) {
      logger.warn('message dropped', { hypha, problem: normalised.problem })
      return
    }
    const { message } = normalised
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
    const commanded = parsed ? this.#command({ message, principal, locale, parsed }) : undefined
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

  #command(turn: CommandTurn, waited = false): Step {
    const { routes, restrictions, hyphae } = this.#runtime
    const { message, principal, parsed } = turn
    const lookup = routes.find(parsed.name)
    // Only a refusal or a failure names the command back (#named), so a command served builds no name.
    if (!lookup.found) {
      return this.#notFound(turn, lookup.choices)
    }
    const { route } = lookup
    if (!patternsAllow(principal.patterns, route)) {
      return this.#say(turn, 'reply.notAllowed', { command: this.#named(turn) })
    }
    const capabilities = hyphae.capabilitiesOf(message.channel)
    const needed = route.command.capabilities
    if (needed !== undefined && needed.length > 0) {
      const missing = needed.filter((capability) => !capabilities.has(capability))
      if (missing.length > 0) {
        return this.#say(turn, 'reply.capabilityMissing', {
          command: this.#named(turn),
          channel: message.channel,
          capabilities: missing.join(', '),
        })
      }
    }
    const allowed = restrictions.allowedKinds(route.qualified)
    if (allowed && !allowed.includes(message.group ? 'group' : 'dm')) {
      return this.#say(turn, 'reply.contextRefused', {
        command: this.#named(turn),
        kind: allowed.length === 1 ? allowed[0] : 'none',
      })
    }
    if (this.#runtime.lifecycle.restarting(route.plugin)) {
      if (waited) return this.#say(turn, 'reply.restarting', { command: this.#named(turn) })
      return this.#waitForRestart(turn)
    }
    if (route.spore.state !== 'live')
      return this.#say(turn, 'reply.unavailable', { command: this.#named(turn) })
    const declared = route.command
    if (!isCodeCommand(declared)) {
      const text = this.#runtime.translator.render(
        { domain: route.plugin, key: declared.respond },
        turn.locale,
      )
      return this.#send(message, { text })
    }
    return this.#handlers.run(route, declared, turn, capabilities)
  }

  /** No command by that name: several enzymes declare it, or none does (with a suggestion if one is close). */
  #notFound(turn: CommandTurn, choices: readonly Route[]): Step {
    const { routes, config } = this.#runtime
    if (choices.length > 1) {
      const named = choices.map((route) => `${config.prefix}${route.qualified}`).join(', ')
      return this.#say(turn, 'reply.ambiguous', { command: this.#named(turn), choices: named })
    }
    const reply = unknownCommandReply({
      typed: turn.parsed.name,
      routes: routes.all,
      patterns: turn.principal.patterns,
      prefix: config.prefix,
    })
    return this.#say(turn, ...reply)
  }

  /** A command for a spore being started again: it waits, briefly, then goes on or is told to retry. */
  async #waitForRestart(turn: CommandTurn): Promise<void> {
    try {
      if (await this.#runtime.lifecycle.settled(RESTART_WAIT_MS)) return this.#command(turn, true)
      return this.#say(turn, 'reply.restarting', { command: this.#named(turn) })
    } catch (error) {
      // Logged, never rejected (see Step).
      this.#failed(turn.message.channel, error)
    }
  }

  /** The command as typed, for a refusal or a failure that names it back. */
  #named(turn: CommandTurn): string {
    return `${this.#runtime.config.prefix}${turn.parsed.name}`
  }

  #say(turn: CommandTurn, key: string, params: Record<string, unknown>): Step {
    const text = this.#runtime.translator.render({ domain: 'core', key, params }, turn.locale)
    return this.#send(turn.message, { text })
  }

  /** A reply: done at once when its channel took it before the call returned, else once it is. */
  #send(message: IncomingMessage, content: OutgoingContent): Step {
    const target = { channel: message.channel, conversationId: message.conversationId }
    const sent = this.#runtime.hyphae.send(target, content)
    if (isFulfilled(sent)) return
    return this.#whenSent(sent, message)
  }

  /** A reply the channel has not taken yet: its refusal is logged, never thrown into the path. */
  #whenSent(sent: Promise<void>, message: IncomingMessage): Promise<void> {
    return sent.catch((error: unknown) => {
      this.#runtime.logger.error('a reply could not be sent', {
        channel: message.channel,
        error: describe(error),
      })
    })
  }
}
