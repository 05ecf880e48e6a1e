import type { SporeOperation } from '@mycelo/septum'
import { AgentDefinitionError, defineOperation, isOperation, type Operation } from './operation.ts'

/**
 * A module: `id` is its authority (what grants name), `name` the model-facing alias, `namespace`
 * the segments before it. A child module registered under a key adds that key, then its own
 * namespace; it creates no authority of its own.
 */
export interface AgentModule {
  readonly kind: 'module'
  readonly id: string
  readonly name: string
  readonly namespace: readonly string[]
  readonly description: string
  readonly operations: Readonly<Record<string, Operation | AgentModule>>
  /** The key its grant is looked up by, when a wider owner (the extension that built it) holds it. */
  readonly grantAs?: string
}

export interface ModuleSpec {
  readonly id: string
  readonly name?: string
  readonly namespace?: readonly string[]
  readonly description?: string
  readonly operations: Readonly<Record<string, Operation | AgentModule | SporeOperation>>
}

/** One callable operation with every name it goes by. */
export interface Leaf {
  /** The enclosing module's id: the authority its calls are refused and reported under. */
  readonly module: string
  /** The key its grant is read from: the module's id, or the wider owner's it was built under. */
  readonly grantKey: string
  /** The path within that module, as a gate sees it: `windows.open`. */
  readonly relative: string
  /** The complete logical path under `env`: `apps.bazaar.windows.open`. */
  readonly path: string
  readonly operation: Operation
}

const SEGMENT = /^[A-Za-z_$][\w$]*$/
// A segment becomes a property of a guest object: these would reach its prototype instead.
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype'])

export function defineModule(spec: ModuleSpec): AgentModule {
  if (typeof spec.id !== 'string' || spec.id.length === 0)
    throw new AgentDefinitionError('a module needs an id')
  const name = spec.name ?? spec.id
  const namespace = [...(spec.namespace ?? [])]
  for (const segment of [...name.split('.'), ...namespace]) checkSegment(segment, `module ${spec.id}`)
  const operations: Record<string, Operation | AgentModule> = {}
  for (const [key, value] of Object.entries(spec.operations)) {
    for (const segment of key.split('.')) checkSegment(segment, `module ${spec.id}, key "${key}"`)
    const isModule = (value as { kind?: unknown }).kind === 'module'
    operations[key] =
      isModule || isOperation(value)
        ? (value as Operation | AgentModule)
        : defineOperation(value as SporeOperation, `module ${spec.id}, operation "${key}"`)
  }
  return Object.freeze({
    kind: 'module',
    id: spec.id,
    name,
    namespace: Object.freeze(namespace),
    description: spec.description ?? '',
    operations: Object.freeze(operations),
  })
}

/**
 * The module with its grant looked up by a wider owner's key, such as the spore or extension that
 * built it: one grant for the owner then covers every module it contributes.
 */
export function grantAs(owner: string, module: AgentModule): AgentModule {
  if (typeof owner !== 'string' || owner.length === 0)
    throw new AgentDefinitionError('grantAs needs an owner key')
  return Object.freeze({ ...module, grantAs: owner })
}

/**
 * Every operation of the modules, with its logical path. Names are allocated within their logical
 * namespace, in the order of the modules' stable ids (never the order they were given in, so a
 * spore coming or going cannot hand its alias to another): a second module of the same name there
 * gets a numbered alias, one elsewhere keeps its own. Refuses a duplicate id, and a path that is
 * both an operation and a namespace prefix.
 */
export function installModules(modules: readonly AgentModule[]): Leaf[] {
  const ids = new Set<string>()
  const taken = new Set<string>()
  const leaves: Leaf[] = []
  // Code-unit order: the same on every machine and in every locale.
  const byId = [...modules].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  for (const module of byId) {
    if (ids.has(module.id)) throw new AgentDefinitionError(`two modules share the id "${module.id}"`)
    ids.add(module.id)
    const base = [...module.namespace, ...module.name.split('.')].join('.')
    let alias = base
    for (let n = 2; taken.has(alias); n++) alias = `${base}_${n}`
    taken.add(alias)
    collect(module, [], (relative, operation) =>
      leaves.push({
        module: module.id,
        grantKey: module.grantAs ?? module.id,
        relative,
        path: `${alias}.${relative}`,
        operation,
      }),
    )
  }
  refuseOverlaps(leaves)
  return leaves
}

function collect(
  module: AgentModule,
  prefix: readonly string[],
  add: (relative: string, op: Operation) => void,
) {
  for (const [key, value] of Object.entries(module.operations)) {
    const at = [...prefix, ...key.split('.')]
    if (value.kind === 'module') collect(value, [...at, ...value.namespace], add)
    else add(at.join('.'), value)
  }
}

function refuseOverlaps(leaves: readonly Leaf[]): void {
  const paths = new Set<string>()
  for (const leaf of leaves) {
    if (paths.has(leaf.path)) throw new AgentDefinitionError(`two operations share the path "${leaf.path}"`)
    paths.add(leaf.path)
  }
  for (const leaf of leaves) {
    const segments = leaf.path.split('.')
    for (let end = 1; end < segments.length; end++) {
      const prefix = segments.slice(0, end).join('.')
      if (paths.has(prefix)) {
        throw new AgentDefinitionError(
          `"${prefix}" is both an operation and a namespace prefix of "${leaf.path}"`,
        )
      }
    }
  }
}

function checkSegment(segment: string, where: string): void {
  if (!SEGMENT.test(segment) || FORBIDDEN.has(segment)) {
    throw new AgentDefinitionError(`${where}: "${segment}" is not a usable name`)
  }
}
