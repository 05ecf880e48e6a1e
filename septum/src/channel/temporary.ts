/**
 * A send that failed for now (the channel is not connected, stopping, or the platform timed out)
 * rather than for good. The core keeps such a message and tries again; any other failure of a send
 * is final. Duck-typed on `temporary`, since a spore bundles its own copy of septum.
 */
export class TemporaryFailure extends Error {
  readonly temporary = true
}

/** Whether a send's failure is worth trying again: a TemporaryFailure from any copy of septum. */
export function isTemporaryFailure(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { temporary?: unknown }).temporary === true
}
