// The shapes the API answers with, as the page reads them.
export interface SporeInfo {
  readonly name: string
  readonly kind?: string
  readonly state: string
  readonly enabled: boolean
  readonly reason?: string
  readonly description?: string
  readonly source?: string
  readonly strain?: string
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

export interface AuditEntry {
  readonly id: number
  readonly at: number
  readonly actorKind: string
  readonly actor: string
  readonly via: string
  readonly method: string
  readonly args: unknown
  readonly outcome: string
  readonly detail: string | null
}
