import { isCodeCommand, type Manifest } from '@mycelo/septum'

const METHODS = {
  hypha: ['connect', 'listen', 'stop', 'send'],
  rhiza: ['start', 'stop', 'health'],
  enzyme: [],
  inhibitor: ['inspect'],
} as const

/** What an implementation lacks for its kind, or undefined when it has everything the core will call. */
export function implementationGaps(manifest: Manifest, instance: unknown): string | undefined {
  if (!isObjectLike(instance)) return `create() returned ${describe(instance)} instead of an object`
  const missing: string[] = METHODS[manifest.kind]
    .filter((method) => typeof instance[method] !== 'function')
    .map((method) => `${method}()`)
  const groups = manifest.kind === 'hypha' && manifest.capabilities.includes('group_membership')
  if (groups && typeof instance.listGroupMembers !== 'function') {
    missing.push('listGroupMembers() (it declares group_membership)')
  }
  if (manifest.kind === 'rhiza' && !('api' in instance)) missing.push('an api property')
  if (manifest.kind === 'enzyme') missing.push(...missingHandlers(manifest.commands, instance.handlers))
  missing.push(...missingRoutes(manifest.routes ?? [], instance.routes))
  if (missing.length === 0) return undefined
  return `the ${manifest.kind} implementation lacks ${missing.join(', ')}`
}

function missingHandlers(commands: Extract<Manifest, { kind: 'enzyme' }>['commands'], handlers: unknown) {
  const table = isObjectLike(handlers) ? handlers : {}
  return commands
    .filter(isCodeCommand)
    .filter((command) => typeof ownMember(table, command.code) !== 'function')
    .map((command) => `a handler "${command.code}" (for command "${command.name}")`)
}

// septum 1.1: each declared route names a function of the instance's `routes`.
function missingRoutes(routes: NonNullable<Manifest['routes']>, members: unknown) {
  const table = isObjectLike(members) ? members : {}
  return routes
    .filter((route) => typeof ownMember(table, route.code) !== 'function')
    .map((route) => `a route handler "${route.code}" (for ${route.method} ${route.path})`)
}

/**
 * A member a manifest names, looked up on the object itself only: `code: constructor` must not
 * find Object.prototype's.
 */
export function ownMember(table: object, name: string): unknown {
  return Object.hasOwn(table, name) ? (table as Record<string, unknown>)[name] : undefined
}

function isObjectLike(value: unknown): value is Record<string, unknown> {
  return (typeof value === 'object' && value !== null) || typeof value === 'function'
}

function describe(value: unknown): string {
  return value === null ? 'null' : typeof value
}
