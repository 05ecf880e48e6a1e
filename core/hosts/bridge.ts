import { CallContexts } from './call-context.ts'
import type { CallKind, HandleMark } from './call-kinds.ts'
import { Exports, Imports } from './handles.ts'
import { isHttp, settle } from './http-marks.ts'
import { errorOf, type FaultMark, faultOf } from './marks.ts'
import { type MarshalMode, marshal, type Wire } from './marshal.ts'
import { decodeAll, Outgoing } from './outgoing.ts'
import { type CallDeadline, PendingCalls } from './pending-calls.ts'
import { Shares } from './shares.ts'
import { SyncChannel, type SyncChannelOptions } from './sync-channel.ts'
import { unmarshal } from './unmarshal.ts'

/**
 * One end of the link between the core and a host: the same class on both sides. Each side exports
 * functions as handles and calls the other's through proxies; a proxy the side no longer holds is
 * released (with the count of times it was received, so a handle sent again meanwhile survives).
 *
 * Calls are asynchronous over `post`, or synchronous over a MessagePort both ends share (see
 * SyncChannel).
 */
export interface BridgeOptions
  extends Pick<SyncChannelOptions, 'port' | 'flags' | 'side' | 'syncMs' | 'onSyncExpired'> {
  /** Posts to the other side's ordinary handler: a message, as it is or as JSON text, or a list (see Outgoing). */
  readonly post: (data: WireData) => void
  /** Holds the calls this side makes ahead until its code goes on (a host does; see Outgoing). */
  readonly hold?: boolean
  /** How long a call made through a proxy may take, by the member's path; none leaves it unbounded. */
  readonly deadlineOf?: (path: readonly string[]) => CallDeadline | undefined
  /** See Unmarshal.adapt. */
  readonly adapt?: (value: Record<string, unknown>) => Record<string, unknown>
}

export type WireMessage =
  | {
      readonly t: 'call'
      readonly seq: number
      readonly fn: number
      readonly args: unknown[]
      /** The receiver's call this one is made while serving (see CallContexts). */
      readonly via?: number
      /** Counted answered by the caller already: only a refusal matters (see markAhead). */
      readonly ahead?: true
    }
  | { readonly t: 'done'; readonly seq: number; readonly value?: unknown; readonly fault?: FaultMark }
  | { readonly t: 'fire'; readonly fn: number; readonly args: unknown[] }
  | { readonly t: 'release'; readonly fn: number; readonly count: number }
  /** A shared value this side sent is gone: the other side drops its copy. */
  | { readonly t: 'forget'; readonly shared: number }

/** What one `post` carries: a message, as it is or as JSON text, or a turn's messages as a JSON list. */
export type WireData = WireMessage | string

type AnyFn = (...args: unknown[]) => unknown

export class Bridge {
  readonly #options: BridgeOptions
  readonly #exports = new Exports()
  readonly #imports: Imports
  readonly #pending = new PendingCalls()
  readonly #contexts = new CallContexts()
  readonly #shares: Shares
  readonly #outgoing: Outgoing<WireMessage>
  readonly #sync: SyncChannel
  /** The other side's calls this side is answering now: a call made serving one may go ahead. */
  readonly #serving = new Set<number>()
  /** Per call of this side's, the calls made ahead while serving it, until it answers. */
  readonly #ahead = new Map<number, Promise<void>[]>()
  #seq = 1
  #closed: Error | undefined

  constructor(options: BridgeOptions) {
    this.#options = options
    this.#outgoing = new Outgoing(options.post, options.hold === true)
    this.#imports = new Imports((fn, count) => {
      if (this.#closed) return
      try {
        this.#outgoing.send({ t: 'release', fn, count }, { plain: true })
      } catch {
        // The other side is gone: nothing to release.
      }
    })
    this.#shares = new Shares((id) => {
      if (!this.#closed) this.#outgoing.send({ t: 'forget', shared: id }, { plain: true })
    })
    this.#sync = new SyncChannel({
      ...options,
      invoke: (fn, args) => this.#invoke(fn, args),
      out: (value, mode, wire) => this.out(value, mode, wire),
      in: (value) => this.in(value),
      flush: () => this.#outgoing.flush(),
    })
  }

  /** Marshals a value for the other side, exporting its functions. */
  out(value: unknown, mode: MarshalMode = 'context', wire?: Wire): unknown {
    return marshal(value, this, { mode, ...(wire ? { wire } : {}) })
  }

  /** Unmarshals a value from the other side; `path` names where it sits, for its deadlines. */
  in(value: unknown, path: readonly string[] = []): unknown {
    const adapt = this.#options.adapt
    return unmarshal(
      value,
      {
        proxy: (mark, at) => this.#proxy(mark, at),
        shared: this.#shares.copies,
        ...(adapt ? { adapt } : {}),
      },
      path,
    )
  }

  export(fn: AnyFn, owner: unknown): number {
    return this.#exports.export(fn, owner)
  }

  /** Calls one of the other side's handles and awaits its answer, within a deadline when given. */
  call(fn: number, args: readonly unknown[], deadline?: CallDeadline): Promise<unknown> {
    if (this.#closed) return Promise.reject(this.#closed)
    // A route's Request has its body read before it crosses (see settle).
    if (args.some(isHttp))
      return (settle(args) as Promise<unknown[]>).then((read) => this.call(fn, read, deadline))
    const seq = this.#seq++
    const post = () => {
      this.#contexts.made(seq)
      this.#postCall(seq, fn, args, this.#contexts.via, false)
    }
    return this.#pending.wait(seq, post, deadline)
  }

  /**
   * A call with no answer of its own (see markAhead), made while this side still serves the other
   * side's call `via`: it resolves at once and is posted before the code that made it goes on.
   * The other side answers `via` only after it, and fails `via` if it is refused. Made at any other
   * time (a timer after the handler ended), it is an ordinary call.
   */
  callAhead(fn: number, args: readonly unknown[], deadline?: CallDeadline): Promise<unknown> {
    const via = this.#contexts.via
    if (this.#closed || via === undefined || !this.#serving.has(via) || args.some(isHttp))
      return this.call(fn, args, deadline)
    try {
      this.#postCall(this.#seq++, fn, args, via, true)
    } catch (error) {
      return Promise.reject(error)
    }
    return Promise.resolve(undefined)
  }

  #postCall(seq: number, fn: number, args: readonly unknown[], via: number | undefined, ahead: boolean) {
    try {
      // Only calls share values: they are posted in order, so the other side keeps every copy.
      const wire: Wire = { plain: true }
      const marshalled = args.map((arg) => marshal(arg, this, { share: this.#shares, wire }))
      const call: WireMessage =
        via === undefined
          ? { t: 'call', seq, fn, args: marshalled }
          : ahead
            ? { t: 'call', seq, fn, args: marshalled, via, ahead }
            : { t: 'call', seq, fn, args: marshalled, via }
      this.#outgoing.send(call, wire, ahead)
      this.#shares.posted()
    } catch (error) {
      this.#shares.failed()
      throw error
    }
  }

  /** Calls one of the other side's handles and blocks this side until it answers (or `syncMs` pass). */
  callSync(fn: number, args: readonly unknown[]): unknown {
    if (this.#closed) throw this.#closed
    return this.#sync.call(this.#seq++, fn, args)
  }

  /** Tells the other side to call a handle, with no answer. */
  fire(fn: number, args: readonly unknown[]): void {
    if (this.#closed) return
    const wire: Wire = { plain: true }
    const marshalled = args.map((arg) => this.out(arg, 'context', wire))
    this.#outgoing.send({ t: 'fire', fn, args: marshalled }, wire)
  }

  /** Handles what the other side posted: one message, or a turn's list of them. */
  receive(data: WireData): void {
    for (const message of decodeAll(data)) this.#receive(message)
  }

  #receive(message: WireMessage): void {
    switch (message.t) {
      case 'call':
        if (message.ahead) this.#answerAhead(message)
        else void this.#answer(message)
        return
      case 'done': {
        const ahead = this.#ahead.get(message.seq)
        if (ahead === undefined) this.#done(message)
        else {
          // Its answer comes after what it sent ahead: as inline, where it awaited them.
          this.#ahead.delete(message.seq)
          void Promise.all(ahead).then(() => this.#done(message))
        }
        return
      }
      case 'fire':
        try {
          this.#invoke(message.fn, message.args)
        } catch {
          // Fired calls (log lines, connection reports) have no one to answer.
        }
        return
      case 'forget':
        this.#shares.copies.delete(message.shared)
        return
      case 'release':
        this.#exports.release(message.fn, message.count)
        return
    }
  }

  #done(message: Extract<WireMessage, { t: 'done' }>): void {
    this.#pending.settle(message.seq, (resolve, reject) => {
      if (message.fault) reject(errorOf(message.fault))
      else resolve(this.in(message.value))
    })
  }

  /** Fails this side's call `seq`, if it still waits: what it made ahead was refused. */
  #refused(seq: number, error: unknown): void {
    this.#pending.settle(seq, (_, reject) => reject(error))
  }

  /** Posts at once what this side holds for the turn (a host about to end says what it had said). */
  flush(): void {
    if (!this.#closed) this.#outgoing.flush()
  }

  /** Fails every call waiting on the other side: it is gone. */
  close(error: Error): void {
    this.#closed = error
    this.#ahead.clear()
    this.#pending.failAll(error)
    this.#sync.close()
  }

  /** How many handles this side holds for the other: a growing count is a leak. */
  get exported(): number {
    return this.#exports.size
  }

  async #answer(message: Extract<WireMessage, { t: 'call' }>): Promise<void> {
    const { seq, via, fn, args } = message
    this.#serving.add(seq)
    try {
      const value = await settle(await this.#serve(seq, via, fn, args))
      this.#serving.delete(seq)
      const wire: Wire = { plain: true }
      const done = { t: 'done', seq, value: this.out(value, 'api', wire) } as const
      this.#outgoing.send(done, wire)
    } catch (error) {
      this.#serving.delete(seq)
      // A throw, or an answer that cannot be cloned (a Symbol, a Proxy): that call's failure, not the bridge's.
      const done = { t: 'done', seq, fault: faultOf(error) } as const
      this.#outgoing.send(done, { plain: false })
    }
  }

  /**
   * A call the other side counted answered (see callAhead): nothing is sent back when it is done.
   * Refused, it fails the call of this side's it was made serving, unless that answered already.
   */
  #answerAhead(message: Extract<WireMessage, { t: 'call' }>): void {
    const { seq, via, fn, args } = message
    if (via === undefined) return
    let outcome: Promise<unknown>
    try {
      outcome = Promise.resolve(settle(this.#serve(seq, via, fn, args)))
    } catch (error) {
      outcome = Promise.reject(error)
    }
    const done = outcome.then(
      () => undefined,
      (error: unknown) => this.#refused(via, error),
    )
    const ahead = this.#ahead.get(via)
    if (ahead === undefined) this.#ahead.set(via, [done])
    else ahead.push(done)
  }

  /**
   * Serves the other side's call, its arguments read first: a handle among them starts the contexts
   * (see CallContexts.track).
   */
  #serve(seq: number, via: number | undefined, fn: number, args: readonly unknown[]): unknown {
    const values = this.#values(args)
    return this.#contexts.serve(seq, via, () => this.#exports.invoke(fn, values))
  }

  #invoke(id: number, args: readonly unknown[]): unknown {
    return this.#exports.invoke(id, this.#values(args))
  }

  #values(args: readonly unknown[]): unknown[] {
    return args.map((arg) => this.in(arg))
  }

  #proxy(mark: HandleMark, path: readonly string[]): AnyFn {
    this.#contexts.track()
    return this.#imports.proxy(mark, (id, kind) => this.#make(id, kind, path))
  }

  #make(id: number, kind: CallKind, path: readonly string[]): AnyFn {
    if (kind === 'fire') return (...args) => this.fire(id, args)
    if (kind === 'sync') return (...args) => this.callSync(id, args)
    const deadline = this.#options.deadlineOf?.(path)
    if (kind === 'ahead') return (...args) => this.callAhead(id, args, deadline)
    return (...args) => this.call(id, args, deadline)
  }
}
