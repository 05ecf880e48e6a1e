import type { CoreRuntime } from '../rhizomorph/runtime.ts'

/** Where each runtime's page listens, once it does: a code sent over chat names the real port. */
const listening = new WeakMap<CoreRuntime, string>()

/** The address the page of this runtime listens on, or undefined while it does not. */
export function listeningUrl(runtime: CoreRuntime): string | undefined {
  return listening.get(runtime)
}

export function listenedOn(runtime: CoreRuntime, url: string): void {
  listening.set(runtime, url)
}

export function stoppedListening(runtime: CoreRuntime, url: string): void {
  if (listening.get(runtime) === url) listening.delete(runtime)
}
