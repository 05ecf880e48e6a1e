// What the API takes from the server around it: who the session is, whether their roles allow a
// command pattern, running work as them, and the audit log. The server mounts the API behind its
// own session middleware and hands these in; tests hand in their own.
import type { Context, MiddlewareHandler } from 'hono'
import type { AuditEntry, ListAuditOptions } from '../../audit/log.ts'

/** What the session middleware leaves on every request it lets through. */
export interface SessionVariables {
  readonly principalId: string
  /** The reader's locale, for every refusal and message this API words. */
  readonly locale: string
}

export type ApiEnv = { Variables: SessionVariables }

export type ApiContext = Context<ApiEnv>

export interface SessionPort {
  /**
   * Answers 403 unless the session's principal's roles allow `pattern`, the command pattern that
   * guards the same action in chat (e.g. `admin.enable`), so a page shows what chat would allow.
   */
  requireCommand(pattern: string): MiddlewareHandler<ApiEnv>
  /** Whether the session's principal's roles allow `pattern`: the same check requireCommand makes. */
  allows(c: ApiContext, pattern: string): boolean
  /** Runs `work` as the session's principal, so the ceiling, the lockout rule and the audit see them. */
  actAsSession<T>(c: ApiContext, work: () => Promise<T>): Promise<T>
}

export type { AuditEntry }
export type AuditQuery = ListAuditOptions

/** The audit log's reading side, as the server's `auditLog(store)` answers it. */
export interface AuditPort {
  list(query: AuditQuery): readonly AuditEntry[] | Promise<readonly AuditEntry[]>
}

/** The HTTP surface's one error type: a status and a catalogue key, worded for the reader. */
export { HttpError } from '../errors.ts'
