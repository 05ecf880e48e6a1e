import type { Manifest } from '../contract/index.ts'
import { type Failures, isRecord } from './failures.ts'

/**
 * septum 1.1: every route the manifest declares names a function in the instance's `routes`, as
 * germination requires (a missing one leaves the spore dormant). Nothing to check without routes.
 */
export function checkRoutes(manifest: Manifest, instance: Record<string, unknown>, failures: Failures): void {
  const declared = manifest.routes ?? []
  if (declared.length === 0) return
  const routes = instance.routes
  if (!isRecord(routes)) {
    failures.add(
      `routes: the manifest declares ${declared.length} route(s) but create() returned no routes object`,
    )
    return
  }
  for (const route of declared) {
    const handler = routes[route.code]
    if (typeof handler === 'function') continue
    failures.add(
      handler === undefined
        ? `routes: ${route.method} ${route.path} names code "${route.code}", which routes does not have`
        : `routes: routes.${route.code} is ${typeof handler}, not a function`,
    )
  }
}
