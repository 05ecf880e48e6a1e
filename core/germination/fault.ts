import type { TranslatableRef } from '@mycelo/septum'

/** A thrown value as one line an operator can read. */
export function faultText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name
  return String(error)
}

/** The catalogue ref a thrown error carries for its own words (e.g. a channel's connect error), if any. */
export function faultRef(error: unknown): TranslatableRef | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const ref: unknown = (error as { ref?: unknown }).ref
  if (typeof ref !== 'object' || ref === null) return undefined
  const { domain, key, params } = ref as Record<string, unknown>
  if (typeof domain !== 'string' || typeof key !== 'string') return undefined
  if (params !== undefined && (typeof params !== 'object' || params === null)) return undefined
  return { domain, key, ...(params === undefined ? {} : { params: params as Record<string, unknown> }) }
}
