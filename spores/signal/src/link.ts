import type { ConnectionReports, Health, Logger } from '@mycelo/septum'
import {
  type FrameSink,
  SignalCliRefusal,
  type SignalTransport,
  type TransportSession,
} from './transport/transport.ts'
import { worded } from './wording.ts'

export interface Backoff {
  /** The wait before the first retry; each further one doubles, up to maxMs. */
  readonly initialMs: number
  readonly maxMs: number
}

export interface DaemonLinkOptions {
  readonly transport: SignalTransport
  readonly sink: FrameSink
  readonly backoff: Backoff
  readonly logger: Logger
  /** The Signal account the hypha speaks as; each new session checks signal-cli has it. */
  readonly account: string
  /** Where the core hears of a loss and a return the moment they happen (absent on an older core). */
  readonly reports?: ConnectionReports | undefined
  /**
   * How often a live session is asked to answer, and how long an answer may take: a daemon that
   * keeps the connection open but stops answering (a half-open socket) is dialled again.
   */
  readonly checkMs?: number
}

/** connect() rejected: signal-cli answered, but has no such account, so no message can go or come. */
export class AccountRefused extends Error {
  constructor(account: string, daemonWords: string) {
    super(worded('account_unknown', { account, daemon: daemonWords }))
    this.name = 'AccountRefused'
  }
}

type LinkState = 'idle' | 'connected' | 'reconnecting' | 'stopped'

/**
 * Keeps one session to signal-cli open: dials, notices the session ending, and dials again with a
 * doubling, bounded backoff until it is stopped. A daemon that is not up yet is waited for the same way.
 */
export class DaemonLink {
  #state: LinkState = 'idle'
  #session: TransportSession | undefined
  #everConnected = false
  #attempts = 0
  #lastError = ''
  #timer: ReturnType<typeof setTimeout> | undefined
  #refusal: AccountRefused | undefined
  #check: ReturnType<typeof setInterval> | undefined

  constructor(private readonly options: DaemonLinkOptions) {}

  /**
   * Makes the first attempt; when signal-cli cannot be reached, keeps retrying in the background
   * rather than rejecting. A daemon that answers without the account rejects: nothing can work.
   */
  async start(): Promise<void> {
    this.#state = 'reconnecting'
    await this.#dial()
    if (this.#refusal !== undefined) {
      const refusal = this.#refusal
      await this.stop()
      throw refusal
    }
  }

  /** The live session; throws the error a send while disconnected reports. */
  session(): TransportSession {
    if (this.#session !== undefined && this.#state === 'connected') return this.#session
    const address = this.options.transport.address
    const why = this.#state === 'stopped' ? 'the signal hypha is stopped' : `reconnecting to ${address}`
    throw new Error(`signal-cli is not connected (${why})`)
  }

  health(): Health {
    const checkedAt = new Date()
    const address = this.options.transport.address
    if (this.#state === 'connected')
      return { state: 'healthy', detail: `connected to signal-cli at ${address}`, checkedAt }
    // A refused account stays the reason even once connect() has stopped the link for it.
    if (this.#refusal !== undefined) return { state: 'unreachable', detail: this.#refusal.message, checkedAt }
    if (this.#state === 'stopped') return { state: 'unreachable', detail: 'stopped', checkedAt }
    if (this.#everConnected) {
      const detail = `reconnecting to signal-cli at ${address} (attempt ${this.#attempts}: ${this.#lastError})`
      return { state: 'degraded', detail, checkedAt }
    }
    const detail =
      this.#state === 'idle'
        ? 'not connected yet'
        : `cannot reach signal-cli at ${address} (attempt ${this.#attempts}: ${this.#lastError})`
    return { state: 'unreachable', detail, checkedAt }
  }

  async stop(): Promise<void> {
    this.#state = 'stopped'
    clearTimeout(this.#timer)
    clearInterval(this.#check)
    const session = this.#session
    this.#session = undefined
    session?.close()
  }

  async #dial(): Promise<void> {
    const { transport, sink, logger } = this.options
    let session: TransportSession
    try {
      session = await transport.dial(sink)
      await this.#checkAccount(session)
    } catch (error) {
      this.#lastError = error instanceof Error ? error.message : String(error)
      this.#refusal = error instanceof AccountRefused ? error : undefined
      this.#attempts += 1
      if (this.#state === 'stopped') return
      const delay = this.#delay()
      const line = this.#refusal === undefined ? 'cannot reach signal-cli; retrying' : this.#lastError
      const level = this.#refusal === undefined ? 'warn' : 'error'
      logger[level](line, {
        address: transport.address,
        attempt: this.#attempts,
        retryInMs: delay,
        error: this.#lastError,
      })
      const said =
        this.#refusal?.message ?? `cannot reach signal-cli at ${transport.address}: ${this.#lastError}`
      this.options.reports?.lost(said, { attempt: this.#attempts, inMs: delay })
      this.#timer = setTimeout(() => void this.#dial(), delay)
      return
    }
    if (this.#state === 'stopped') {
      session.close()
      return
    }
    if (this.#everConnected) logger.info('reconnected to signal-cli', { address: transport.address })
    else logger.info('connected to signal-cli', { address: transport.address })
    this.#session = session
    this.#refusal = undefined
    this.#state = 'connected'
    this.#everConnected = true
    this.#attempts = 0
    void session.closed.then((reason) => this.#lost(session, reason))
    this.#watch(session)
    this.options.reports?.up()
  }

  /** Asks the session to answer every checkMs; one that stays silent that long counts as lost. */
  #watch(session: TransportSession): void {
    const ms = this.options.checkMs
    if (ms === undefined) return
    clearInterval(this.#check)
    let asking = false
    this.#check = setInterval(async () => {
      if (asking || this.#session !== session) return
      asking = true
      const answered = await this.#answers(session, ms)
      asking = false
      if (answered || this.#session !== session) return
      this.#lost(session, worded('silent', { seconds: Math.round(ms / 1000) }))
      session.close()
    }, ms)
    this.#check.unref?.()
  }

  /** Whether signal-cli answers a call within `ms`: a refusal is an answer too. */
  async #answers(session: TransportSession, ms: number): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined
    const silence = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms)
    })
    const asked = session.listGroups().then(
      () => true,
      (error: unknown) => error instanceof SignalCliRefusal,
    )
    const answered = await Promise.race([asked, silence])
    clearTimeout(timer)
    return answered
  }

  /** A call that needs the account: the daemon's refusal names a missing one in its own words. */
  async #checkAccount(session: TransportSession): Promise<void> {
    try {
      await this.#withinCheck(session.listGroups())
    } catch (error) {
      session.close()
      if (error instanceof SignalCliRefusal && error.unknownAccount) {
        throw new AccountRefused(this.options.account, error.daemonMessage)
      }
      throw error
    }
  }

  /** A daemon that accepts the connection but does not answer is no better than one that is down. */
  async #withinCheck<T>(asked: Promise<T>): Promise<T> {
    const ms = this.options.checkMs
    if (ms === undefined) return asked
    let timer: ReturnType<typeof setTimeout> | undefined
    const silence = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(worded('silent', { seconds: Math.round(ms / 1000) }))), ms)
    })
    try {
      return await Promise.race([asked, silence])
    } finally {
      clearTimeout(timer)
      asked.catch(() => undefined)
    }
  }

  #lost(session: TransportSession, reason: string): void {
    if (this.#session !== session || this.#state === 'stopped') return
    clearInterval(this.#check)
    this.#session = undefined
    this.#state = 'reconnecting'
    this.#lastError = reason
    const delay = this.#delay()
    this.options.logger.warn('signal-cli went away; reconnecting', {
      address: this.options.transport.address,
      reason,
      retryInMs: delay,
    })
    this.options.reports?.lost(reason, { attempt: 1, inMs: delay })
    this.#timer = setTimeout(() => void this.#dial(), delay)
  }

  #delay(): number {
    const { initialMs, maxMs } = this.options.backoff
    return Math.min(initialMs * 2 ** Math.max(this.#attempts - 1, 0), maxMs)
  }
}
