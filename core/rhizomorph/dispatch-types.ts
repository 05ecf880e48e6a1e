import type { IncomingMessage, ParsedCommand } from '@mycelo/septum'
import type { PrincipalSnapshot } from '../identity/directory.ts'
import type { CoreRuntime } from './runtime.ts'

/**
 * A step that finished at once, or a promise of it: the common path never waits on a turn it need
 * not. A step's promise never rejects (each logs or answers its own failure), so the bus hands it
 * to the hypha as it is, with no promise of its own made from it.
 */
export type Step = void | Promise<void>

/** One command on its way through the path, once its sender and language are known. */
export interface CommandTurn {
  readonly message: IncomingMessage
  readonly principal: PrincipalSnapshot
  readonly locale: string
  readonly parsed: ParsedCommand
}

export type DispatchCapabilities = ReturnType<CoreRuntime['hyphae']['capabilitiesOf']>
