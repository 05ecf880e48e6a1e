// What the channel benchmarks share: two ways of answering the same `/ping` (the bot through its
// hypha, and a bare SDK client as the floor), driven message by message in turn, so whatever the
// shared machine does meanwhile falls on both alike.

export interface SideFigures {
  /** Mean time from a message arriving at the fake service to its reply arriving back there. */
  readonly meanMs: number
  readonly p50Ms: number
  readonly p99Ms: number
  /** Process CPU time spent per message while this side ran (the fakes included). */
  readonly cpuUsPerMessage: number
}

export interface ChannelFigures {
  readonly messages: number
  readonly core: SideFigures
  readonly floor: SideFigures
  /** How much the core adds to the floor's mean time per message, in percent. */
  readonly overheadPercent: number
  readonly wallSeconds: number
}

/** One way of answering: `ping` sends one `/ping` and resolves once the `pong` came back. */
export interface ChatSide {
  ping(): Promise<void>
  /** How many `pong` replies the fake received, to check the figures describe real replies. */
  pongs(): number
  stop(): Promise<void>
}

/**
 * The bot's side: refuses a figure from a channel spore that did not come up, then pings through the
 * fake it talks to; stopping ends the bot, then the fake.
 */
export function botSide(options: {
  readonly channel: string
  readonly core: {
    readonly running: { report(): readonly { name: string; state: string; reason?: string }[] }
    stop(): Promise<void>
  }
  readonly fake: { stop(): Promise<void> }
  readonly ping: () => Promise<void>
  readonly pongs: () => number
}): ChatSide {
  const { channel, core, fake } = options
  const line = core.running.report().find((one) => one.name === channel)
  if (line?.state !== 'live') throw new Error(`the ${channel} spore is ${line?.state}: ${line?.reason}`)
  return {
    ping: options.ping,
    pongs: options.pongs,
    async stop() {
      await core.stop()
      await fake.stop()
    },
  }
}

/** Warms both sides up, then measures `count` pings on each, alternating which goes first. */
export async function measureSides(options: {
  readonly floor: ChatSide
  readonly core: ChatSide
  readonly count: number
  readonly warmUp: number
}): Promise<ChannelFigures> {
  const started = performance.now()
  const { floor, core, count, warmUp } = options
  const measured = new Map<ChatSide, { latencies: number[]; cpuUs: number }>([
    [floor, { latencies: [], cpuUs: 0 }],
    [core, { latencies: [], cpuUs: 0 }],
  ])
  for (let index = 0; index < warmUp + count; index += 1) {
    const order = index % 2 === 0 ? [floor, core] : [core, floor]
    for (const side of order) {
      const cpu = process.cpuUsage()
      const at = performance.now()
      await side.ping()
      if (index < warmUp) continue
      const used = process.cpuUsage(cpu)
      const record = measured.get(side)
      record?.latencies.push(performance.now() - at)
      if (record) record.cpuUs += used.user + used.system
    }
  }
  for (const [side, label] of [
    [floor, 'floor'],
    [core, 'core'],
  ] as const) {
    if (side.pongs() !== warmUp + count)
      throw new Error(`${label}: expected ${warmUp + count} pong replies, the fake received ${side.pongs()}`)
  }
  const figures = (side: ChatSide): SideFigures => {
    const { latencies, cpuUs } = measured.get(side) ?? { latencies: [], cpuUs: 0 }
    return sideFigures(latencies, cpuUs)
  }
  const coreFigures = figures(core)
  const floorFigures = figures(floor)
  return {
    messages: count,
    core: coreFigures,
    floor: floorFigures,
    overheadPercent: ((coreFigures.meanMs - floorFigures.meanMs) / floorFigures.meanMs) * 100,
    wallSeconds: (performance.now() - started) / 1_000,
  }
}

/** Mean and percentiles of one side's latencies, and its CPU time per message. */
export function sideFigures(latencies: readonly number[], cpuUs: number): SideFigures {
  const sorted = [...latencies].sort((a, b) => a - b)
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0
  return {
    meanMs: sorted.reduce((sum, value) => sum + value, 0) / sorted.length,
    p50Ms: at(50),
    p99Ms: at(99),
    cpuUsPerMessage: cpuUs / sorted.length,
  }
}

/** Starts the bare SDK's side, then the bot's, measures them in turn, and stops both whatever happens. */
export async function measurePath(options: {
  readonly floorSide: () => Promise<ChatSide>
  readonly coreSide: () => Promise<ChatSide>
  readonly count: number
  readonly warmUp: number
}): Promise<ChannelFigures> {
  const floor = await options.floorSide()
  try {
    const core = await options.coreSide()
    try {
      return await measureSides({ floor, core, count: options.count, warmUp: options.warmUp })
    } finally {
      await core.stop()
    }
  } finally {
    await floor.stop()
  }
}
