// The shapes the API answers with, as the page reads them.
export type { AuditEntry } from '../../audit/entry.ts'

export interface SporeInfo {
  readonly name: string
  readonly kind?: string
  readonly state: string
  readonly enabled: boolean
  readonly reason?: string
  readonly description?: string
  readonly source?: string
  readonly strain?: string
  readonly isolation?: 'worker' | 'inline'
  readonly restarted?: { readonly count: number; readonly reason: string }
}

export interface ReportLine {
  readonly name: string
  readonly kind?: string
  readonly state: string
  readonly reason?: string
}

export interface Status {
  readonly version: string
  readonly startedAt: string
  readonly uptimeSeconds: number
  readonly messagesPerMinute: number | null
}

export interface HealthLine {
  readonly name: string
  readonly state: string
  readonly detail?: string
  readonly checkedAt?: string
}

export interface SporeNeeds {
  readonly name: string
  readonly kind?: string
  readonly state: string
  readonly description?: string
  readonly edges: readonly string[]
  readonly mandatory: readonly string[]
  readonly requires: readonly { rhizas: readonly string[]; scopes: readonly string[]; optional: boolean }[]
  readonly commands: readonly string[]
}

export interface Source {
  readonly id: string
  readonly label: string
  readonly url: string
  readonly trust: string
  readonly enabled: boolean
  readonly token?: string
  readonly publisherKey?: string
}

export interface OfferedSpore {
  readonly name: string
  readonly kind: string
  readonly description?: string
  readonly strains: readonly { strain: string; septum: string; published?: string }[]
}

export interface Principal {
  readonly id: string
  readonly displayName?: string
  readonly identities: readonly { channel: string; externalId: string; displayName?: string }[]
  readonly roles: readonly string[]
  readonly reviewed: boolean
  readonly locale?: string
}

export interface Role {
  readonly name: string
  readonly patterns: readonly string[]
  readonly builtin: boolean
}

export interface CommandLine {
  readonly plugin: string
  readonly name: string
  readonly qualified: string
  readonly allowed?: boolean
}

/** An agent key as the API lists it: never its secret. */
export interface AgentKey {
  readonly id: string
  readonly label: string
  readonly principalId: string
  readonly createdAt: string
  readonly lastUsedAt: string | null
  readonly revokedAt: string | null
  readonly confirmIn: { readonly channel: string; readonly conversationId: string } | null
}

/** One of the signed-in person's web sessions; `current` is the one asking. */
export interface WebSession {
  readonly id: string
  readonly createdAt: number
  readonly lastSeenAt: number
  readonly expiresAt: number
  readonly current: boolean
}

export interface Conversation {
  readonly channel: string
  readonly conversationId: string
  readonly kind: 'dm' | 'group'
  readonly label?: string
  readonly locale?: string
  readonly lastSeen: string
}
