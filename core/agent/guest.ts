/** What a host call answers the guest: a value, or an error it may catch. */
export type HostAnswer =
  | { readonly ok: true; readonly value: unknown }
  /** `fault` indexes the host-side failure this error stands for: the guest can rethrow it, never forge it. */
  | { readonly ok: false; readonly name: string; readonly message: string; readonly fault?: number }

/** The marker the guest wrapper puts before a value JSON cannot carry. */
export const INVALID_RESULT = '\u0002invalid'
/** The marker before an uncaught guest error's envelope. */
export const GUEST_ERROR = '\u0001'

/**
 * The program run before the guest's: builds `env` from the callable paths (each top-level
 * namespace also bare, where no global has its name) and `forage` from the discovery hook, then
 * takes the raw host hooks off the global object so only the bindings remain. It evaluates to
 * the function that turns the program's promise into its answer: an uncaught error comes back as
 * an envelope, naming the host-side failure it is when it is one of the errors the host raised
 * (kept in a map the guest cannot reach, so its type decides, never its text).
 */
export function guestPrelude(paths: readonly string[]): string {
  return `(() => {
  const call = globalThis.__myceloCall
  const forage = globalThis.__myceloForage
  delete globalThis.__myceloCall
  delete globalThis.__myceloForage
  const faults = new WeakMap()
  const unwrap = (text) => {
    const answer = JSON.parse(text)
    if (answer.ok) return answer.value
    const error = new Error(answer.message)
    error.name = answer.name
    if (typeof answer.fault === 'number') faults.set(error, answer.fault)
    throw error
  }
  const env = {}
  for (const path of ${JSON.stringify(paths)}) {
    const segments = path.split('.')
    let at = env
    for (const segment of segments.slice(0, -1)) at = at[segment] ??= {}
    at[segments[segments.length - 1]] = (input) =>
      call(path, JSON.stringify(input === undefined ? {} : input)).then(unwrap)
  }
  const freeze = (node) => { for (const key of Object.keys(node)) if (typeof node[key] === 'object') freeze(node[key]); return Object.freeze(node) }
  globalThis.env = freeze(env)
  globalThis.forage = Object.freeze({
    search: (query, limit) => unwrap(forage('search', JSON.stringify({ query, limit }))),
    list: (prefix) => unwrap(forage('list', JSON.stringify({ prefix }))),
    describe: (path) => unwrap(forage('describe', JSON.stringify({ path }))),
  })
  // The bare form: demo.ping(...) beside env.demo.ping(...), for every namespace no global holds.
  for (const key of Object.keys(env)) if (!(key in globalThis)) globalThis[key] = env[key]
  return (running) => running.then(
    (value) => {
      if (value === undefined) return 'null'
      if (typeof value === 'function' || typeof value === 'symbol') return ${JSON.stringify(INVALID_RESULT)}
      try {
        const text = JSON.stringify(value)
        return text === undefined ? ${JSON.stringify(INVALID_RESULT)} : text
      } catch {
        return ${JSON.stringify(INVALID_RESULT)}
      }
    },
    (error) => ${JSON.stringify(GUEST_ERROR)} + JSON.stringify({
      name: String(error?.name ?? 'Error'),
      message: String(error?.message ?? error),
      fault: (typeof error === 'object' || typeof error === 'function') && error !== null ? faults.get(error) : undefined,
    }),
  )
})()`
}

/** The guest's program as the body of an async function: evaluates to its promise. */
export function guestProgram(program: string): string {
  return `(async () => {
${program}
})()`
}
