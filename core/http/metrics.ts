import type { Germination } from '../germination/index.ts'
import type { OutboxReport } from '../outbox/tally.ts'
import type { Store } from '../store/index.ts'
import { installRecords } from '../store/install-rows.ts'

/** Upper bounds of the dispatch latency buckets, in seconds. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30] as const

/**
 * The bot's counters, fed from the message path (the bus's observe()) and read by /metrics. Only
 * additions on the hot path: everything else is computed when scraped.
 */
export class MetricsRegistry {
  #received = 0
  #admitted = 0
  #reconnects = new Map<string, number>()
  readonly #buckets = new Array<number>(BUCKETS.length).fill(0)
  #latencyCount = 0
  #latencySum = 0

  /** A message a hypha emitted has been handled (or dropped), `seconds` after it was emitted. */
  handled(seconds: number): void {
    this.#received += 1
    this.#latencyCount += 1
    this.#latencySum += seconds
    for (let index = 0; index < BUCKETS.length; index++) {
      if (seconds > BUCKETS[index]!) continue
      this.#buckets[index]! += 1
      return
    }
  }

  /** Messages handled since start, for the page's rate; read, never reset. */
  get handledCount(): number {
    return this.#received
  }

  /** A message passed admission. */
  admitted(): void {
    this.#admitted += 1
  }

  /** A supervised channel or rhiza reconnected; for the supervisor to call. */
  reconnected(spore: string): void {
    this.#reconnects.set(spore, (this.#reconnects.get(spore) ?? 0) + 1)
  }

  /** Prometheus' text exposition format, version 0.0.4. */
  render(sources: {
    readonly germination: Germination
    readonly store: Store
    readonly outbox?: OutboxReport
  }): string {
    const lines: string[] = []
    const metric = (name: string, type: string, help: string) =>
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`)
    metric('mycelo_messages_total', 'counter', 'Messages the hyphae emitted, by outcome.')
    lines.push(`mycelo_messages_total{outcome="admitted"} ${this.#admitted}`)
    // Emitted and handled but never admitted: refused by an inhibitor, malformed, or dropped.
    lines.push(
      `mycelo_messages_total{outcome="not_admitted"} ${Math.max(0, this.#received - this.#admitted)}`,
    )
    metric(
      'mycelo_dispatch_seconds',
      'histogram',
      'Time from a hypha emitting a message to the message handled and any reply sent.',
    )
    let cumulative = 0
    BUCKETS.forEach((bound, index) => {
      cumulative += this.#buckets[index]!
      lines.push(`mycelo_dispatch_seconds_bucket{le="${bound}"} ${cumulative}`)
    })
    lines.push(`mycelo_dispatch_seconds_bucket{le="+Inf"} ${this.#latencyCount}`)
    lines.push(`mycelo_dispatch_seconds_sum ${this.#latencySum}`)
    lines.push(`mycelo_dispatch_seconds_count ${this.#latencyCount}`)
    metric('mycelo_spores', 'gauge', 'Spores by state.')
    const states = new Map<string, number>([
      ['live', 0],
      ['disabled', 0],
      ['dormant', 0],
    ])
    for (const spore of sources.germination.spores)
      states.set(spore.state, (states.get(spore.state) ?? 0) + 1)
    for (const [state, count] of states) lines.push(`mycelo_spores{state="${state}"} ${count}`)
    metric('mycelo_reconnects_total', 'counter', 'Reconnections of supervised channels and rhizas.')
    for (const [spore, count] of this.#reconnects)
      lines.push(`mycelo_reconnects_total{spore="${label(spore)}"} ${count}`)
    metric('mycelo_installs', 'gauge', 'Spores installed from a sporangium.')
    const installed = [...installRecords(sources.store).values()].filter((row) => row.source !== null).length
    lines.push(`mycelo_installs ${installed}`)
    if (sources.outbox !== undefined) lines.push(...outboxLines(sources.outbox))
    return `${lines.join('\n')}\n`
  }
}

/** What waits per channel and conversation, and what was dropped per channel and why. */
function outboxLines(report: OutboxReport): string[] {
  const lines = [
    '# HELP mycelo_outbox_waiting Messages accepted for sending and not yet taken by their channel.',
    '# TYPE mycelo_outbox_waiting gauge',
  ]
  for (const channel of report.channels) {
    for (const conversation of channel.conversations) {
      lines.push(
        `mycelo_outbox_waiting{channel="${label(channel.channel)}",conversation="${label(conversation.conversationId)}"} ${conversation.waiting}`,
      )
    }
  }
  lines.push(
    '# HELP mycelo_outbox_dropped_total Messages the outbox dropped since start-up: too old to send, or refused by the channel.',
    '# TYPE mycelo_outbox_dropped_total counter',
  )
  for (const channel of report.channels) {
    for (const reason of ['age', 'refused'] as const) {
      lines.push(
        `mycelo_outbox_dropped_total{channel="${label(channel.channel)}",reason="${reason}"} ${channel.dropped[reason]}`,
      )
    }
  }
  return lines
}

/** A label value as the exposition format escapes it. */
function label(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')
}
