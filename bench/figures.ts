// What every scenario measures and how it is checked: a run whose replies stop, or turn into
// anything but the expected text, throws instead of printing a fast figure.
import type { Sent } from '../core/test/support/runtime.ts'

/** One scenario's result: what was measured, against which target, beside which floor. */
export interface Figure {
  readonly scenario: string
  readonly value: number
  readonly unit: string
  /** `≥ 250000`, `< 0.8`: printed beside the figure. */
  readonly target: string
  readonly met: boolean
  readonly detail?: Record<string, number>
}

export interface Timing {
  readonly messages: number
  readonly perSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
}

export function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** Throws unless exactly one reply was sent, with exactly the expected text; then forgets it. */
export function expectReply(sent: Sent[], expected: string, index: number): void {
  const reply = sent.length === 1 ? sent[0]!.content.text : undefined
  if (reply !== expected) {
    const got = sent.map((s) => JSON.stringify(s.content.text)).join(', ') || 'no reply'
    throw new Error(`bench: message ${index} was answered ${got}, expected ${JSON.stringify(expected)}`)
  }
  sent.length = 0
}

export interface PathRun {
  readonly count: number
  /** Sends message i and resolves once it is handled. */
  say(i: number): Promise<void>
  /** The reply message i must get. */
  expected(i: number): string
  readonly sent: Sent[]
}

/** Sends `count` messages one after the other, timing each and checking every reply. */
export async function timePath(run: PathRun): Promise<Timing> {
  const latencies = new Float64Array(run.count)
  const started = performance.now()
  for (let i = 0; i < run.count; i++) {
    const t0 = performance.now()
    await run.say(i)
    latencies[i] = performance.now() - t0
    expectReply(run.sent, run.expected(i), i)
  }
  return timingOf(latencies, performance.now() - started)
}

/** The figures of a run: its rate over `elapsedMs`, and its latencies' median and 99th percentile. */
export function timingOf(latencies: Float64Array, elapsedMs: number): Timing {
  latencies.sort()
  return {
    messages: latencies.length,
    perSecond: latencies.length / (elapsedMs / 1000),
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
  }
}

/**
 * A message from the test hypha `chat`, as its `say()` takes it: in one of twenty group rooms where
 * many people talk, or, given `room`, in that direct conversation with the sender alone.
 */
export function chatMessage(options: { i: number; from: string; text: string; room?: string }) {
  const room = `room${options.i % 20}`
  return {
    channel: 'chat',
    conversationId: options.room ?? room,
    ...(options.room === undefined ? { group: { id: room, name: room } } : {}),
    messageId: `m${options.i}`,
    sender: { channel: 'chat', externalId: options.from },
    text: options.text,
    attachments: [],
    raw: null,
    receivedAt: new Date(),
  }
}
