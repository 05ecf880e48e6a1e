import { AsyncLocalStorage } from 'node:async_hooks'

/**
 * Who a mycelium call runs for. Carried by the core rather than passed, so the seed's method
 * signatures stay as they are: the role ceiling and the audit read it the same way on every surface.
 */
export type Actor =
  /** A person, through the command a handler is serving on a channel. */
  | {
      readonly kind: 'principal'
      readonly principalId: string
      /** The channel the command came in on. */
      readonly channel: string
      /** The enzyme whose handler is serving the command. */
      readonly spore: string
      /** The reader's language for this command (conversation, principal, default): reasons are worded in it. */
      readonly locale?: string
    }
  /**
   * A person, through an agent acting for them: every rule bounds it as that person, never more.
   * `agent` names the credential or runtime it came through, for the log.
   */
  | {
      readonly kind: 'agent'
      readonly principalId: string
      readonly agent: string
      /** The person's language: reasons and descriptions are worded in it. */
      readonly locale?: string
    }
  /** The operator at the machine (the command-line companion): the recovery path, never capped. */
  | { readonly kind: 'operator'; readonly surface: 'cli' }

const current = new AsyncLocalStorage<Actor>()

/** Runs `work` (and everything it awaits) on behalf of `actor`. */
export function actingAs<T>(actor: Actor, work: () => T): T {
  return current.run(actor, work)
}

/**
 * Calls `method` on `self` with two arguments on behalf of `actor`: what the message path does for
 * every handler, without a closure made for the call.
 */
export function callAs<A, B, T>(
  actor: Actor,
  method: (this: unknown, a: A, b: B) => T,
  self: unknown,
  a: A,
  b: B,
): T {
  return current.run(actor, invoke, method, self, a, b) as T
}

function invoke<A, B, T>(method: (this: unknown, a: A, b: B) => T, self: unknown, a: A, b: B): T {
  return method.call(self, a, b)
}

/** The person a call is bounded by: the principal of a command, or the one an agent acts for. */
export function actingPrincipal(actor: Actor | undefined): string | undefined {
  return actor?.kind === 'principal' || actor?.kind === 'agent' ? actor.principalId : undefined
}

/**
 * The actor of the call in progress; undefined when a spore acts outside any invocation (a timer,
 * its start()), where it is bounded by its granted scopes alone.
 */
export function currentActor(): Actor | undefined {
  return current.getStore()
}
