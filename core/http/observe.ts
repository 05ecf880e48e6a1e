import type { Assembly } from '../boot/runtime.ts'
import type { MetricsRegistry } from './metrics.ts'

/**
 * Feeds the registry from the message path without a line in the bus: the bus's `emit` (which
 * every hypha context calls at call time) is wrapped to time each message, and a message listener
 * counts the admitted ones. A replay of messages held before admission opened is not counted twice.
 */
export function observeMessages(assembly: Assembly, metrics: MetricsRegistry): void {
  const { bus, runtime } = assembly
  const emit = bus.emit
  const openAdmission = bus.openAdmission.bind(bus)
  let replaying = false
  const timed = (hypha: string, input: unknown): Promise<void> => {
    if (replaying) return emit(hypha, input)
    const started = performance.now()
    return emit(hypha, input).then(() => metrics.handled((performance.now() - started) / 1000))
  }
  Object.defineProperty(bus, 'emit', { value: timed, configurable: true })
  Object.defineProperty(bus, 'openAdmission', {
    value: () => {
      replaying = true
      try {
        openAdmission()
      } finally {
        replaying = false
      }
    },
    configurable: true,
  })
  runtime.listeners.add('mycelium', () => metrics.admitted())
}
