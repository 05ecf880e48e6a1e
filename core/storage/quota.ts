/** How many bytes of storage each spore may use. */
export interface StorageQuotas {
  readonly quotaBytes: number
  /** Per-spore overrides, by name. */
  readonly spores: Readonly<Record<string, number>>
}

export const DEFAULT_QUOTA_BYTES = 10 * 1024 * 1024

export function quotaOf(quotas: StorageQuotas, spore: string): number {
  return quotas.spores[spore] ?? quotas.quotaBytes
}
