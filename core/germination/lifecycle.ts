import type { Enzyme, Hypha, Inhibitor, Rhiza } from '@mycelo/septum'
import { hostKeeper } from '../hosts/keeper.ts'
import { coreReason } from '../i18n/reason-words.ts'
import {
  DEFAULT_DEADLINES,
  DeadlineExceeded,
  type Deadlines,
  logExpiry,
  raceDeadline,
} from '../supervision/deadline.ts'
import { faultRef, faultText } from './fault.ts'
import type { ContextFactory, GerminatedSpore, Germination } from './ports.ts'
import { propagateDormancy } from './propagation.ts'

export interface StartOptions {
  /** How long each step may take; the defaults unless given. */
  readonly deadlines?: Pick<Deadlines, Phase | 'stop'>
  /**
   * Called once the inhibitors have started and before any hypha listens: from then on admission
   * can judge, so messages a hypha emitted while connecting may go through it.
   */
  readonly onAdmissionReady?: () => void
  /** Told as each hypha's connect() begins, so it reads connecting meanwhile. */
  readonly onConnecting?: (spore: GerminatedSpore) => void
}

/**
 * Starts every live spore: hyphae connect; rhizas and enzymes start, each required rhiza before its
 * dependants; inhibitors start; then hyphae listen, so no message arrives before everything it could
 * reach is up. A step that fails, or outlasts its deadline, makes its spore dormant, and the spores
 * that mandatorily require it (which are then not started). Never throws.
 */
export async function startAll(
  germination: Germination,
  contexts: ContextFactory,
  options: StartOptions = {},
): Promise<void> {
  const deadlines = options.deadlines ?? DEFAULT_DEADLINES
  const live = (kind: GerminatedSpore['kind']) =>
    germination.order.filter((spore) => spore.kind === kind && spore.state === 'live')
  const run = (spore: GerminatedSpore, phase: Phase, call: () => unknown) =>
    step({ germination, spore, phase, call, deadlines })
  // Storage is ready before any spore's code runs, each required rhiza's before its dependants'.
  for (const spore of germination.order) migrate(germination, spore, contexts)
  for (const spore of live('hypha')) {
    options.onConnecting?.(spore)
    await run(spore, 'connect', () => (spore.instance as Hypha).connect(contexts.hypha(spore)))
  }
  for (const spore of germination.order) {
    if (spore.state !== 'live') continue
    if (spore.kind === 'rhiza') {
      await run(spore, 'start', () => (spore.instance as Rhiza).start(contexts.rhiza(spore)))
    } else if (spore.kind === 'enzyme') {
      const enzyme = spore.instance as Enzyme
      await run(spore, 'start', () => enzyme.start?.(contexts.enzymeStart(spore)))
    }
  }
  for (const spore of live('inhibitor')) {
    const inhibitor = spore.instance as Inhibitor
    await run(spore, 'start', () => inhibitor.start?.(contexts.inhibitor(spore)))
  }
  options.onAdmissionReady?.()
  for (const spore of live('hypha')) {
    await run(spore, 'listen', () => (spore.instance as Hypha).listen())
  }
}

type Phase = 'connect' | 'start' | 'listen'

export interface StartOneOptions {
  readonly germination: Germination
  readonly spore: GerminatedSpore
  readonly contexts: ContextFactory
  readonly deadlines: Pick<Deadlines, Phase | 'stop'>
  readonly onConnecting?: (spore: GerminatedSpore) => void
}

/**
 * Starts one live spore while the others run: a hypha connects then listens, any other kind starts.
 * A failure makes it dormant, and its dependants by propagation, as at start-up. Never throws.
 */
export async function startOne(options: StartOneOptions): Promise<void> {
  const { germination, spore, contexts, deadlines } = options
  const run = (phase: Phase, call: () => unknown) => step({ germination, spore, phase, call, deadlines })
  migrate(germination, spore, contexts)
  const instance = spore.instance
  switch (spore.kind) {
    case 'hypha':
      if (spore.state === 'live') options.onConnecting?.(spore)
      await run('connect', () => (instance as Hypha).connect(contexts.hypha(spore)))
      await run('listen', () => (instance as Hypha).listen())
      return
    case 'rhiza':
      return run('start', () => (instance as Rhiza).start(contexts.rhiza(spore)))
    case 'enzyme':
      return run('start', () => (instance as Enzyme).start?.(contexts.enzymeStart(spore)))
    case 'inhibitor':
      return run('start', () => (instance as Inhibitor).start?.(contexts.inhibitor(spore)))
  }
}

/** Runs a live spore's pending storage migrations; one that fails makes it (and its dependants) dormant. */
function migrate(germination: Germination, spore: GerminatedSpore, contexts: ContextFactory): void {
  if (spore.state !== 'live') return
  const reason = contexts.migrate(spore)
  if (reason === undefined) return
  spore.state = 'dormant'
  spore.reason = reason
  germination.logger.warn('spore is dormant: its storage migration failed', { spore: spore.name, reason })
  for (const dependant of propagateDormancy(germination.order, germination.byName)) {
    germination.logger.warn('spore is dormant', { spore: dependant.name, reason: dependant.reason })
  }
}

interface Step {
  readonly germination: Germination
  readonly spore: GerminatedSpore
  readonly phase: Phase
  readonly call: () => unknown
  readonly deadlines: Pick<Deadlines, Phase | 'stop'>
}

async function step({ germination, spore, phase, call, deadlines }: Step): Promise<void> {
  // An earlier failure may have made this spore dormant by propagation.
  if (spore.state !== 'live') return
  const { logger } = germination
  try {
    const ms = deadlines[phase]
    await raceDeadline(Promise.resolve().then(call), {
      step: `${phase}()`,
      ms,
      onExpired: logExpiry(logger, spore.name),
      onLate: (outcome) => releaseLate({ spore, phase, outcome, germination, deadlines }),
    })
    // A hypha enters the list at connect; listen is its second step, not a second start.
    if (phase !== 'listen') germination.started.push(spore)
  } catch (error) {
    spore.state = 'dormant'
    spore.reason = error instanceof DeadlineExceeded ? error.message : stepFailed(phase, error)
    // It will not run: a host it has is ended (a late start is then never released into a live host).
    hostKeeper.discard(hostKeeper.hostOf(spore.instance), error)
    logger.warn(`spore is dormant: ${phase}() failed`, { spore: spore.name, reason: spore.reason })
    for (const dependant of propagateDormancy(germination.order, germination.byName)) {
      logger.warn('spore is dormant', { spore: dependant.name, reason: dependant.reason })
    }
  }
}

/** A step's own failure, worded for a reader with the fault's catalogue ref when it carries one. */
function stepFailed(phase: Phase, error: unknown): string {
  const ref = faultRef(error)
  return coreReason('stepFailed', { step: `${phase}()`, fault: faultText(error) }, ref && { fault: ref })
}

interface Late {
  readonly spore: GerminatedSpore
  readonly phase: Phase
  readonly outcome: PromiseSettledResult<unknown>
  readonly germination: Germination
  readonly deadlines: Pick<Deadlines, 'stop'>
}

/** A step that finished after its deadline is ignored; what it started is stopped, within its own deadline. */
function releaseLate({ spore, phase, outcome, germination, deadlines }: Late): void {
  germination.logger.warn(`${phase}() finished after its deadline; ignored`, {
    spore: spore.name,
    outcome: outcome.status,
  })
  if (outcome.status !== 'fulfilled') return
  const instance = spore.instance as { stop?: () => unknown } | undefined
  if (typeof instance?.stop !== 'function') return
  const stopping = Promise.resolve().then(() => instance.stop?.())
  raceDeadline(stopping, { step: 'stop()', ms: deadlines.stop }).catch((error: unknown) =>
    germination.logger.warn('stop() after a late start failed', {
      spore: spore.name,
      error: faultText(error),
    }),
  )
}
