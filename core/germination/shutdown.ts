import type { Logger } from '@mycelo/septum'
import { hostKeeper } from '../hosts/keeper.ts'
import { DeadlineExceeded, logExpiry, raceDeadline } from '../supervision/deadline.ts'
import { faultText } from './fault.ts'
import type { GerminatedSpore, Germination } from './ports.ts'

export interface StopOptions {
  /** How long one spore's stop() may take before it is abandoned. */
  readonly timeoutMs: number
  readonly logger: Logger
}

/**
 * Stops what startAll started, in reverse. Hyphae go first, since listen was the last step of
 * start-up: no message arrives while the spores it would reach are stopping. Each stop() is bounded;
 * one that hangs or throws is logged and the rest still stop. Never throws.
 */
export async function stopAll(germination: Germination, options: StopOptions): Promise<void> {
  const started = germination.started.splice(0).reverse()
  const hyphae = started.filter((spore) => spore.kind === 'hypha')
  const others = started.filter((spore) => spore.kind !== 'hypha')
  for (const spore of [...hyphae, ...others]) await stopOne(spore, options)
}

/** Stops one spore, bounded, and takes it off the started list. Never throws. */
export async function stopStarted(germination: Germination, spore: GerminatedSpore, options: StopOptions) {
  const index = germination.started.indexOf(spore)
  if (index === -1) return
  germination.started.splice(index, 1)
  await stopOne(spore, options)
}

async function stopOne(spore: GerminatedSpore, options: StopOptions): Promise<void> {
  await stopInstance(spore, options)
  // A host outlives its spore's stop() only until it has answered (or failed to).
  hostKeeper.end(hostKeeper.hostOf(spore.instance))
}

async function stopInstance(spore: GerminatedSpore, { timeoutMs, logger }: StopOptions): Promise<void> {
  const instance = spore.instance as { stop?: () => unknown } | undefined
  if (typeof instance?.stop !== 'function') return
  try {
    // A stop that settles after it was abandoned is ignored by the race, never an unhandled rejection.
    await raceDeadline(
      Promise.resolve().then(() => instance.stop?.()),
      {
        step: 'stop()',
        ms: timeoutMs,
        onExpired: logExpiry(logger, spore.name),
      },
    )
  } catch (error) {
    if (!(error instanceof DeadlineExceeded))
      logger.warn(`stop() failed: ${faultText(error)}`, { spore: spore.name })
  }
}
