import type { AnyOperationSchema } from '@mycelo/septum'
import { decode, isOperationSchema, jsonSchemaOf } from './schema.ts'

/** Marks a function its caller across the host boundary must call synchronously. */
export type SyncMark = <T extends object>(fn: T) => T

/**
 * A spore's operations as its host hands them to the core. Each schema becomes a Standard Schema
 * whose validation runs the spore's own schema here, in the host (decoding input, encoding output,
 * Effect or Standard alike), and whose JSON Schema is worked out here once: across the boundary the
 * core sees plain data and asynchronous calls, and the schema library stays with the spore. An
 * operation that cannot be adapted is passed on as it is, for the core to refuse with its reason.
 */
export function hostedOperations(operations: unknown, markSync: SyncMark): unknown {
  if (typeof operations !== 'object' || operations === null) return operations
  return Object.fromEntries(
    Object.entries(operations).map(([key, operation]) => [key, hostedOperation(operation, markSync)]),
  )
}

function hostedOperation(operation: unknown, markSync: SyncMark): unknown {
  const spec = operation as Record<string, unknown> | null
  if (typeof spec !== 'object' || spec === null) return operation
  const { input, output, run } = spec
  if (!isOperationSchema(input) || !isOperationSchema(output) || typeof run !== 'function') return operation
  try {
    return {
      ...spec,
      input: hostedSchema(input, 'input', markSync),
      output: hostedSchema(output, 'output', markSync),
      run: (value: unknown, context: unknown) => run.call(spec, value, context),
    }
  } catch {
    return operation
  }
}

function hostedSchema(schema: AnyOperationSchema, side: 'input' | 'output', markSync: SyncMark) {
  const json = jsonSchemaOf(schema, side)
  const published = markSync(() => json)
  return {
    '~standard': {
      version: 1,
      vendor: 'mycelo-host',
      // A schema that throws throws here, and the core takes it for the host fault it is.
      validate: async (value: unknown) => {
        const decoded = await decode(schema, value, side)
        return decoded.ok
          ? { value: decoded.value }
          : { issues: decoded.issues.map((message) => ({ message })) }
      },
      jsonSchema: { input: published, output: published },
    },
  }
}
