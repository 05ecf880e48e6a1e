// Connecting a channel in one step: what a channel's connector checks against the service before
// anything is stored, and the table of connectors, one per channel spore. A channel added later
// (Telegram, Matrix …) brings its connector here; `connect` on every surface reads this table.
import type { OutcomeOf } from '@mycelo/septum'
import { discordConnector } from './discord.ts'
import { matrixConnector } from './matrix.ts'
import { signalConnector } from './signal.ts'
import { telegramConnector } from './telegram.ts'

/** What a person gave: the secret typed at the prompt, and any named answers (an account, say). */
export interface ConnectInput {
  readonly secret?: string
  /** What followed the channel's name on the command line (an address, an account …). */
  readonly args: readonly string[]
  /** Settings already stored for the spore (an API address a test or a proxy set, say). */
  readonly stored: Readonly<Record<string, unknown>>
}

/** What the service confirmed, and the settings that make the channel connect. */
export interface Connected {
  /** Who the service says the bot is, for the answer ("the bot Mycelo#1234"). */
  readonly who: string
  readonly settings: Readonly<Record<string, unknown>>
}

export interface Connector {
  /** The channel spore it connects; its settings and enablement go through the usual functions. */
  readonly spore: string
  /** Whether the person must type a secret (read at a prompt, never from the command line). */
  readonly asksSecret: boolean
  check(input: ConnectInput, options: { readonly deadlineMs: number }): Promise<OutcomeOf<Connected>>
}

export const CONNECTORS: Readonly<Record<string, Connector>> = {
  discord: discordConnector,
  signal: signalConnector,
  telegram: telegramConnector,
  matrix: matrixConnector,
}

/** How long a service has to answer a check. */
export const CONNECT_DEADLINE_MS = 10_000
