/** A thrown value as one line an operator can read. */
export function faultText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name
  return String(error)
}
