import type { Enzyme, Hypha, Inhibitor, Rhiza } from '@mycelo/septum'
import { faultText } from './fault.ts'
import type { ContextFactory, GerminatedSpore, Germination } from './ports.ts'
import { propagateDormancy } from './propagation.ts'

/**
 * Starts every live spore: hyphae connect; rhizas and enzymes start, each required rhiza before its
 * dependants; inhibitors start; then hyphae listen, so no message arrives before everything it could
 * reach is up. A step that fails makes its spore dormant, and the spores that mandatorily require it
 * (which are then not started). Never throws.
 */
export async function startAll(germination: Germination, contexts: ContextFactory): Promise<void> {
  const live = (kind: GerminatedSpore['kind']) =>
    germination.order.filter((spore) => spore.kind === kind && spore.state === 'live')
  for (const spore of live('hypha')) {
    await step(germination, spore, 'connect', () => (spore.instance as Hypha).connect(contexts.hypha(spore)))
  }
  for (const spore of germination.order) {
    if (spore.state !== 'live') continue
    if (spore.kind === 'rhiza') {
      await step(germination, spore, 'start', () => (spore.instance as Rhiza).start(contexts.rhiza(spore)))
    } else if (spore.kind === 'enzyme') {
      const enzyme = spore.instance as Enzyme
      await step(germination, spore, 'start', () => enzyme.start?.(contexts.enzymeStart(spore)))
    }
  }
  for (const spore of live('inhibitor')) {
    const inhibitor = spore.instance as Inhibitor
    await step(germination, spore, 'start', () => inhibitor.start?.(contexts.inhibitor(spore)))
  }
  for (const spore of live('hypha')) {
    await step(germination, spore, 'listen', () => (spore.instance as Hypha).listen())
  }
}

type Phase = 'connect' | 'start' | 'listen'

async function step(
  germination: Germination,
  spore: GerminatedSpore,
  phase: Phase,
  run: () => unknown,
): Promise<void> {
  // An earlier failure may have made this spore dormant by propagation.
  if (spore.state !== 'live') return
  try {
    await run()
    // A hypha enters the list at connect; listen is its second step, not a second start.
    if (phase !== 'listen') germination.started.push(spore)
  } catch (error) {
    spore.state = 'dormant'
    spore.reason = `${phase}() failed: ${faultText(error)}`
    germination.logger.warn(`spore is dormant: ${phase}() failed`, {
      spore: spore.name,
      reason: spore.reason,
    })
    for (const dependant of propagateDormancy(germination.order, germination.byName)) {
      germination.logger.warn('spore is dormant', { spore: dependant.name, reason: dependant.reason })
    }
  }
}
