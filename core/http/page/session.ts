// Who the page acts as, and what their roles allow: the list comes from the session's answer,
// computed by the API's own guard, so the page hides what the API would refuse anyway.
import { createContext, useContext } from 'react'

export interface Session {
  readonly principalId: string
  readonly sessionId: string
  readonly csrfToken: string
  readonly locale: string
  readonly allowed: readonly string[]
}

export const SessionContext = createContext<Session>({
  principalId: '',
  sessionId: '',
  csrfToken: '',
  locale: 'en',
  allowed: [],
})

/** Whether the session's roles allow the action a command pattern guards (`admin.enable`). */
export function useCan(): (pattern: string) => boolean {
  const { allowed } = useContext(SessionContext)
  return (pattern) => allowed.includes(pattern)
}
