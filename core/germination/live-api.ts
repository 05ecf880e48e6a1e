/**
 * A rhiza's `api` as a consumer holds it: a view that finds the rhiza's current self at each use.
 * A consumer keeps what `ctx.rhiza('x')` gave for as long as it likes, while x may be restarted
 * (its host ended and started again, a reload, an upgrade) under it: each call reaches the x that
 * runs now, and fails with `unavailable`'s words while none does, instead of reaching one long gone.
 */
export function liveApi<T extends object>(
  first: T,
  current: () => object | undefined,
  unavailable: () => Error,
): T {
  return view(first, current, unavailable) as T
}

function view(first: object, current: () => object | undefined, unavailable: () => Error): object {
  const members = new Map<PropertyKey, unknown>()
  const now = () => {
    const api = current()
    if (api === undefined) throw unavailable()
    return api
  }
  return new Proxy(first, {
    get(target, key) {
      const api = current() ?? target
      const value = Reflect.get(api, key, api)
      if (typeof value !== 'function' && !isPlainObject(value)) return value
      const known = members.get(key)
      if (known !== undefined) return known
      // Stable per member, so a member read twice is the same function (or object) both times.
      const member =
        typeof value === 'function'
          ? function (this: unknown, ...args: unknown[]) {
              const self = now()
              const fn = Reflect.get(self, key, self)
              if (typeof fn !== 'function') throw unavailable()
              return fn.apply(self, args)
            }
          : view(
              value as object,
              () => {
                const inner = Reflect.get(now(), key)
                return isPlainObject(inner) ? inner : undefined
              },
              unavailable,
            )
      members.set(key, member)
      return member
    },
  })
}

/** A nested group of members (api.search.byTitle), not a value such as a Date or a Map. */
function isPlainObject(value: unknown): value is object {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}
