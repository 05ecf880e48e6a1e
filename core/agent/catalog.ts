import { CATALOG_LIMITS, type CatalogEntry, Forage } from './forage.ts'
import type { Leaf } from './namespace.ts'
import { jsonSchemaOf } from './schema.ts'

/**
 * The discovery catalogue of a graph's leaves, schemas published as JSON Schema. Built on the
 * bot's thread: the sandbox's worker gets the entries and never loads a schema library.
 */
export function forageOf(leaves: readonly Leaf[]): Forage {
  return new Forage(leaves.slice(0, CATALOG_LIMITS.entries).map(entryOf))
}

function entryOf(leaf: Leaf): CatalogEntry {
  const { operation } = leaf
  return Object.freeze({
    path: leaf.path,
    module: leaf.module,
    operation: leaf.relative,
    description: operation.description,
    access: operation.policy.access,
    confirm: operation.policy.confirm,
    call: `env.${leaf.path}(input)`,
    input: jsonSchemaOf(operation.input, 'input'),
    output: jsonSchemaOf(operation.output, 'output'),
  })
}
