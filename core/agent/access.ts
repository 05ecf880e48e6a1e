import { COMMON_DOMAIN, type TranslatableRef } from '@mycelo/septum'
import type { Leaf } from './namespace.ts'

export type Grant = 'write' | 'read' | 'none'
export type Grants = Readonly<Record<string, Grant>>

/** What a person is asked before a confirm operation runs: never its arguments or credentials. */
export interface ConfirmRequest {
  readonly module: string
  readonly operation: string
  readonly access: 'read' | 'write'
}

/** The host's decisions, passed down as data. */
export interface AccessOptions {
  /** Module id → grant; a module not named keeps full access. */
  readonly grants?: Grants
  /** The session's stored grants, read at every call; they override `grants` key by key. */
  readonly sessionGrants?: () => Grants | undefined | Promise<Grants | undefined>
  /**
   * Module ids that fail closed: `none` unless a grant names them. A function is read at every call,
   * so a module that appeared since (a spore enabled after the key was made) is required too.
   */
  readonly required?: readonly string[] | (() => readonly string[])
  /** Asks a person; without it a confirm operation is refused, never run unasked. */
  readonly confirm?: (request: ConfirmRequest) => Promise<boolean>
  /** Observes each refusal (logs, metering); cannot change the decision. */
  readonly onRefused?: (refusal: AccessRefusal) => void
  /** Words a refusal for the person (the bot: its `common` catalogue, in their locale); English otherwise. */
  readonly render?: (ref: TranslatableRef) => string
  /**
   * A connection resumed after its transport was lost: it has no recorded way to ask through the
   * client, so every write asks `confirm` again (a port the host keeps, such as chat) and is
   * refused without one; reads go on.
   */
  readonly resumed?: boolean
}

export type RefusalReason =
  | 'not-granted'
  | 'read-only'
  | 'unconfirmable'
  | 'declined'
  | 'identity-missing'
  | 'resumed'

/** A refused call's ordinary result. */
export interface AccessRefusal {
  readonly refused: true
  readonly module: string
  readonly operation: string
  readonly reason: RefusalReason
  /** The catalogue key it is worded from, `refusal.agent_*` in the common domain. */
  readonly key: string
  readonly message: string
}

/** The English wording, for a runtime with no catalogue; the bot renders the same keys. */
const MESSAGES: Readonly<Record<RefusalReason, (module: string, operation: string) => string>> = {
  'not-granted': (module) => `Refused: this agent has no access to "${module}".`,
  'read-only': (module, operation) =>
    `Refused: this agent may only read "${module}", and "${operation}" changes something.`,
  unconfirmable: (module, operation) =>
    `Refused: "${module}.${operation}" needs a person's confirmation, and there is no one to ask here.`,
  declined: (module, operation) => `Refused: the person declined "${module}.${operation}".`,
  'identity-missing': (module, operation) =>
    `Refused: "${module}.${operation}" changes something, and this call carries no execution identity.`,
  resumed: (module, operation) =>
    `Refused: "${module}.${operation}" changes something, and this connection was resumed after the bot restarted, so it can no longer ask a person. Start a new connection (initialize again) to make changes.`,
}

/** The grant in force for a module right now: the session's, else the host's, else full or none. */
export async function grantFor(access: AccessOptions, module: string): Promise<Grant> {
  const session = await access.sessionGrants?.()
  const named = session?.[module] ?? access.grants?.[module]
  if (named !== undefined) return named
  const required = typeof access.required === 'function' ? access.required() : access.required
  return required?.includes(module) ? 'none' : 'write'
}

/**
 * The grant first, then the person: answers the refusal, or undefined when the call may go on to
 * decode its input. Every refusal is shown to onRefused, whose answer and throw are ignored.
 */
export async function checkAccess(
  access: AccessOptions,
  leaf: Leaf,
  beforePerson: () => AccessRefusal | undefined = () => undefined,
): Promise<AccessRefusal | undefined> {
  const refusal = await decide(access, leaf, beforePerson)
  if (refusal !== undefined) {
    try {
      access.onRefused?.(refusal)
    } catch {
      // An observer cannot change the decision, not even by throwing.
    }
  }
  return refusal
}

async function decide(
  access: AccessOptions,
  leaf: Leaf,
  beforePerson: () => AccessRefusal | undefined,
): Promise<AccessRefusal | undefined> {
  const { policy } = leaf.operation
  const grant = await grantFor(access, leaf.grantKey)
  if (grant === 'none') return refusalOf(leaf, 'not-granted', access)
  if (grant === 'read' && policy.access !== 'read') return refusalOf(leaf, 'read-only', access)
  // Over a resumed connection no client is known to be askable: a write needs a person port the
  // host still has (chat), and asks it again every time, labelled confirm or not.
  const resumedWrite = access.resumed === true && policy.access !== 'read'
  if (resumedWrite && access.confirm === undefined) return refusalOf(leaf, 'resumed', access)
  // Nobody is asked about a call that would be refused anyway.
  const refused = beforePerson()
  if (refused !== undefined) return refused
  if (!policy.confirm && !resumedWrite) return undefined
  if (access.confirm === undefined) return refusalOf(leaf, 'unconfirmable', access)
  const request = Object.freeze({ module: leaf.module, operation: leaf.relative, access: policy.access })
  return (await askPerson(access.confirm, request)) ? undefined : refusalOf(leaf, 'declined', access)
}

export function refusalOf(leaf: Leaf, reason: RefusalReason, access: AccessOptions): AccessRefusal {
  const { module, relative: operation } = leaf
  const key = `refusal.agent_${reason.replace('-', '_')}`
  const ref: TranslatableRef = { domain: COMMON_DOMAIN, key, params: { module, operation } }
  const message = access.render?.(ref) ?? MESSAGES[reason](module, operation)
  return Object.freeze({ refused: true, module, operation, reason, key, message })
}

/** Only an explicit yes confirms: a port that fails or answers anything else has not. */
async function askPerson(confirm: NonNullable<AccessOptions['confirm']>, request: ConfirmRequest) {
  try {
    return (await confirm(request)) === true
  } catch {
    return false
  }
}
