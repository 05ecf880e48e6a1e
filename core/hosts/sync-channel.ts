import { isThenable } from '../supervision/deadline.ts'
import { errorOf, type FaultMark, faultOf } from './marks.ts'
import type { MarshalMode, Wire } from './marshal.ts'
import { decode } from './outgoing.ts'

/**
 * The synchronous half of a bridge: a MessagePort both ends share, and a flag per side in a
 * SharedArrayBuffer. A caller blocks on its own flag and, while blocked, still answers the other
 * side's synchronous calls (a storage transaction's callback calls back into the core waiting on it).
 */
export interface SyncChannelOptions {
  /** This side's end of the channel. */
  readonly port: MessagePort
  /** Index 0 is the core's flag, 1 the host's. */
  readonly flags: Int32Array
  readonly side: 0 | 1
  /** How long a synchronous call may block this side. */
  readonly syncMs: number
  /** Told when a call was not answered within syncMs, before it fails. */
  readonly onSyncExpired?: (ms: number) => void
  /** Calls one of this side's handles with the other side's marshalled arguments. */
  readonly invoke: (fn: number, args: readonly unknown[]) => unknown
  /** Marshals a value for the other side, and unmarshals one from it (the bridge's own). */
  readonly out: (value: unknown, mode: MarshalMode, wire: Wire) => unknown
  readonly in: (value: unknown) => unknown
  /** Posts what the bridge holds for its ordinary channel: the other side reads it before the call. */
  readonly flush: () => void
}

type SyncMessage =
  | { readonly t: 'sync'; readonly seq: number; readonly fn: number; readonly args: unknown[] }
  | { readonly t: 'synced'; readonly seq: number; readonly value?: unknown; readonly fault?: FaultMark }

/**
 * node:worker_threads, asked on the first synchronous call rather than at the top: loading it costs
 * each spore host some 0.4 MiB and 8 ms of start-up, and most hosts never call synchronously.
 */
function receiveOn(): typeof import('node:worker_threads').receiveMessageOnPort {
  return (require('node:worker_threads') as typeof import('node:worker_threads')).receiveMessageOnPort
}

export class SyncChannel {
  readonly #options: SyncChannelOptions

  constructor(options: SyncChannelOptions) {
    this.#options = options
    options.port.addEventListener('message', (event) => void this.#onSync(decode(event.data), false))
    options.port.start()
  }

  /** Calls one of the other side's handles, blocking this side until it answers (or syncMs pass). */
  call(seq: number, fn: number, args: readonly unknown[]): unknown {
    const { port, flags, side, syncMs } = this.#options
    const wire: Wire = { plain: true }
    const marshalled = args.map((arg) => this.#options.out(arg, 'sync', wire))
    this.#options.flush()
    port.postMessage(encode({ t: 'sync', seq, fn, args: marshalled }, wire))
    this.#wake(1 - side)
    const until = Date.now() + syncMs
    for (;;) {
      const left = until - Date.now()
      if (left <= 0) {
        this.#options.onSyncExpired?.(syncMs)
        throw new Error(`a synchronous call was not answered within ${syncMs} ms`)
      }
      Atomics.wait(flags, side, 0, left)
      Atomics.store(flags, side, 0)
      const receive = receiveOn()
      for (let received = receive(port); received; received = receive(port)) {
        const message = decode(received.message) as SyncMessage
        if (message.t === 'sync') {
          void this.#onSync(message, true)
          continue
        }
        if (message.seq !== seq) continue // an answer to a call that gave up waiting
        if (message.fault) throw errorOf(message.fault)
        return this.#options.in(message.value)
      }
    }
  }

  close(): void {
    this.#options.port.close()
  }

  async #onSync(message: SyncMessage, blocked: boolean): Promise<void> {
    if (message.t !== 'sync') return // an answer nobody waits for any more
    const { port, side } = this.#options
    try {
      let value = this.#options.invoke(message.fn, message.args)
      if (isThenable(value)) {
        if (blocked) throw new Error('a synchronous call cannot wait for a promise while its caller waits')
        value = await value
      }
      const wire: Wire = { plain: true }
      const answer = {
        t: 'synced',
        seq: message.seq,
        value: this.#options.out(value, 'context', wire),
      } as const
      port.postMessage(encode(answer, wire))
    } catch (error) {
      port.postMessage({ t: 'synced', seq: message.seq, fault: faultOf(error) } satisfies SyncMessage)
    }
    this.#wake(1 - side)
  }

  #wake(index: number): void {
    Atomics.store(this.#options.flags, index, 1)
    Atomics.notify(this.#options.flags, index)
  }
}

/** A synchronous call's message as it is posted: JSON text when every value in it survives JSON. */
function encode(message: SyncMessage, wire: Wire): SyncMessage | string {
  return wire.plain ? JSON.stringify(message) : message
}
