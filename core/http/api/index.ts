import { Hono } from 'hono'
import type { CoreRuntime } from '../../rhizomorph/runtime.ts'
import type { HttpEnv } from '../env.ts'

/**
 * The operator API's routes, mounted at /api/v1 behind the app's middleware chain (errors,
 * security headers, session, Origin + CSRF). Guard each with `requireCommand(commandFor(action))`
 * from ../session-guard.ts and ../actions.ts, and run mycelium calls inside `actAsSession(c, …)`.
 */
export function apiRoutes(_runtime: CoreRuntime): Hono<HttpEnv> {
  return new Hono<HttpEnv>()
}
