// The audit log's wire shape, free of imports so the admin page's bundle can share it with the
// server without pulling the store in.

/** One audited write as the API answers it. */
export interface AuditEntry {
  readonly id: number
  readonly at: number
  readonly actorKind: string
  readonly actor: string
  readonly via: string
  readonly method: string
  readonly args: unknown
  readonly outcome: 'ok' | 'refused' | 'failed'
  readonly detail: string | null
}
