import { isCodeCommand, type OutgoingContent } from '@mycelo/septum'
import { patternsAllow } from '../identity/patterns.ts'
import { isFulfilled } from '../supervision/deadline.ts'
import type { SporeContexts } from './contexts.ts'
import type { CommandTurn, Step } from './dispatch-types.ts'
import { HandlerCalls } from './handler-calls.ts'
import { describe } from './listeners.ts'
import type { Route } from './routes.ts'
import type { CoreRuntime } from './runtime.ts'
import { unknownCommandReply } from './suggest.ts'

/** How long a command for a spore being restarted waits for it before being told to try again. */
const RESTART_WAIT_MS = 2_000

/**
 * The command half of the message path, once the sender and the reader's language are known:
 * route → authorise → capabilities → context rules → `respond:` or the handler → reply. Every
 * refusal is answered in the reader's locale; no step rejects (see Step).
 */
export class CommandDispatch {
  readonly #runtime: CoreRuntime
  readonly #handlers: HandlerCalls

  constructor(runtime: CoreRuntime, contexts: SporeContexts) {
    this.#runtime = runtime
    this.#handlers = new HandlerCalls({
      contexts,
      logger: runtime.logger,
      deadlineMs: () => runtime.config.timeouts.handler,
      refuse: (turn, key) => this.#refuse(turn, key),
    })
  }

  /**
   * Kept small (each refusal is made in a method of its own): JSC compiles a function to its faster
   * tiers after a number of calls that grows with its size, and this one runs for every command.
   */
  run(turn: CommandTurn, waited = false): Step {
    const lookup = this.#runtime.routes.find(turn.parsed.name)
    // Only a refusal or a failure names the command back (#named), so a command served builds no name.
    if (!lookup.found) return this.#notFound(turn, lookup.choices)
    const { route } = lookup
    if (!patternsAllow(turn.principal.patterns, route)) return this.#refuse(turn, 'reply.notAllowed')
    const channel = turn.message.channel
    const capabilities = this.#runtime.hyphae.capabilitiesOf(channel)
    const needed = route.command.capabilities
    if (needed !== undefined && needed.length > 0) {
      const missing = needed.filter((capability) => !capabilities.has(capability))
      if (missing.length > 0) return this.#capabilityMissing(turn, missing)
    }
    const allowed = this.#runtime.restrictions.allowedKinds(route.qualified)
    if (allowed && !allowed.includes(turn.message.group ? 'group' : 'dm')) {
      return this.#contextRefused(turn, allowed)
    }
    if (this.#runtime.lifecycle.restarting(route.plugin)) {
      return waited ? this.#refuse(turn, 'reply.restarting') : this.#waitForRestart(turn)
    }
    if (route.spore.state !== 'live') return this.#refuse(turn, 'reply.unavailable')
    const declared = route.command
    if (!isCodeCommand(declared)) return this.#respond(turn, route.plugin, declared.respond)
    return this.#handlers.run(route, declared, turn, capabilities)
  }

  /** A `respond:` command: its catalogue text in the reader's language. */
  #respond(turn: CommandTurn, domain: string, key: string): Step {
    return this.#send(turn, { text: this.#runtime.translator.render({ domain, key }, turn.locale) })
  }

  /** A refusal that names the command and nothing else. */
  #refuse(turn: CommandTurn, key: string): Step {
    return this.#say(turn, key, { command: this.#named(turn) })
  }

  #capabilityMissing(turn: CommandTurn, missing: readonly string[]): Step {
    return this.#say(turn, 'reply.capabilityMissing', {
      command: this.#named(turn),
      channel: turn.message.channel,
      capabilities: missing.join(', '),
    })
  }

  #contextRefused(turn: CommandTurn, allowed: readonly string[]): Step {
    return this.#say(turn, 'reply.contextRefused', {
      command: this.#named(turn),
      kind: allowed.length === 1 ? allowed[0] : 'none',
    })
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
      if (await this.#runtime.lifecycle.settled(RESTART_WAIT_MS)) return this.run(turn, true)
      return this.#refuse(turn, 'reply.restarting')
    } catch (error) {
      // Logged, never rejected (see Step).
      this.#failed(turn, error)
    }
  }

  /** The command as typed, for a refusal or a failure that names it back. */
  #named(turn: CommandTurn): string {
    return `${this.#runtime.config.prefix}${turn.parsed.name}`
  }

  #say(turn: CommandTurn, key: string, params: Record<string, unknown>): Step {
    const text = this.#runtime.translator.render({ domain: 'core', key, params }, turn.locale)
    return this.#send(turn, { text })
  }

  /** A reply: done at once when its channel took it before the call returned, else once it is. */
  #send(turn: CommandTurn, content: OutgoingContent): Step {
    const { message } = turn
    const target = { channel: message.channel, conversationId: message.conversationId }
    const sent = this.#runtime.hyphae.send(target, content)
    if (isFulfilled(sent)) return
    return this.#whenSent(sent, turn)
  }

  /** A reply the channel has not taken yet: its refusal is logged, never thrown into the path. */
  #whenSent(sent: Promise<void>, turn: CommandTurn): Promise<void> {
    return sent.catch((error: unknown) => {
      this.#runtime.logger.error('a reply could not be sent', {
        channel: turn.message.channel,
        error: describe(error),
      })
    })
  }

  #failed(turn: CommandTurn, error: unknown): void {
    this.#runtime.logger.error('the message path failed', {
      hypha: turn.message.channel,
      error: describe(error),
    })
  }
}
