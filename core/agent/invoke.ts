import { type AccessOptions, type AccessRefusal, checkAccess, refusalOf } from './access.ts'
import type { Leaf } from './namespace.ts'
import type { InvocationContext } from './operation.ts'
import { decode, SchemaFault } from './schema.ts'

/** How one operation call ended; only `failed` is the host's fault. */
export type Invocation =
  | { readonly kind: 'value'; readonly value: unknown }
  | { readonly kind: 'refused'; readonly refusal: AccessRefusal }
  /** The caller's input did not decode: the model may correct it. */
  | { readonly kind: 'invalid-input'; readonly issues: readonly string[] }
  /** A throwing schema, a throwing operation, or an output outside its own schema: never the model's doing. */
  | { readonly kind: 'failed'; readonly evidence: unknown }

export interface InvokeOptions {
  readonly leaf: Leaf
  readonly input: unknown
  readonly context: InvocationContext
  readonly access: AccessOptions
  /** Refuse a write whose context lacks an execution identity rather than invent one. */
  readonly requireIdentity?: boolean
}

/** The grant, then the identity a write needs, then the person, then the input; then the operation. */
export async function invokeLeaf(options: InvokeOptions): Promise<Invocation> {
  const { leaf, context, access } = options
  const refusal = await checkAccess(access, leaf, () => missingIdentity(options))
  if (refusal !== undefined) return { kind: 'refused', refusal }
  const { operation } = leaf
  try {
    const input = await decode(operation.input, options.input, 'input')
    if (!input.ok) return { kind: 'invalid-input', issues: input.issues }
    const produced = await operation.run(input.value, context)
    const output = await decode(operation.output, produced, 'output')
    if (!output.ok) return { kind: 'failed', evidence: { output: 'invalid', issues: output.issues } }
    return { kind: 'value', value: output.value }
  } catch (error) {
    return {
      kind: 'failed',
      evidence: error instanceof SchemaFault ? { schema: error.side, error: error.cause } : error,
    }
  }
}

function missingIdentity({
  leaf,
  context,
  requireIdentity,
  access,
}: InvokeOptions): AccessRefusal | undefined {
  if (!requireIdentity || leaf.operation.policy.access === 'read') return undefined
  const identified = context.executionId !== undefined && context.operationOrdinal !== undefined
  return identified ? undefined : refusalOf(leaf, 'identity-missing', access)
}
