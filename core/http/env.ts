import type { LiveSession } from './sessions.ts'
import type { LoginAttempt } from './throttle.ts'

/** What the middleware chain sets on a request's context, for the routes after it. */
export interface HttpEnv {
  Variables: {
    /** The locale an error or a refusal is worded in: the session principal's, else the default. */
    locale: string
    /** Set by requireSession: the person the session acts as. */
    principalId: string
    session: LiveSession
    /** The principal's role patterns, read fresh for this request. */
    patterns: ReadonlySet<string>
    /** Set on a sign-in before its body is read: the attempt the throttle already counted. */
    loginAttempt: LoginAttempt
  }
}
