// Operations declared with an Effect Schema: exchanged as its canonical JSON codec, input decoded,
// output encoded, a throwing transformation a host error; beside a Standard Schema (Zod 4).
import { describe, expect, it } from 'bun:test'
import { Schema, SchemaGetter } from 'effect'
import { z } from 'zod'
import { defineModule, type ExecuteResult, makeAgentRuntime } from '../../agent/index.ts'

function value(result: ExecuteResult): unknown {
  if (!result.ok) throw new Error(`execute failed: ${result.message}`)
  return result.value
}

const Throwing = Schema.String.pipe(
  Schema.decodeTo(Schema.Number, {
    decode: SchemaGetter.transform((_text: string): number => {
      throw new Error('the transformation broke')
    }),
    encode: SchemaGetter.transform((n: number) => String(n)),
  }),
)

const seen: unknown[] = []
const clock = defineModule({
  id: 'clock',
  operations: {
    // Input crosses as JSON text and is decoded to a Date and a number before run sees it.
    shift: {
      access: 'read',
      input: Schema.Struct({ at: Schema.Date, by: Schema.NumberFromString }),
      output: Schema.Struct({ at: Schema.Date, count: Schema.NumberFromString }),
      run: ({ at, by }) => {
        seen.push(at instanceof Date, typeof by)
        return { at: new Date(at.getTime() + by), count: by }
      },
    },
    broken: { access: 'read', input: Throwing, output: Schema.Number, run: (n) => n },
    lying: {
      access: 'read',
      input: Schema.Struct({}),
      output: Schema.Number,
      run: () => 'not a number' as never,
    },
    // A Standard Schema beside it: validated, not encoded.
    zod: { access: 'read', input: z.object({ n: z.number() }), output: z.number(), run: ({ n }) => n + 1 },
  },
})

describe('an Effect Schema operation', () => {
  const runtime = makeAgentRuntime({ modules: [clock] })

  it('decodes input and encodes output (“an Effect output schema encodes the result”)', async () => {
    seen.length = 0
    const result = value(
      await runtime.execute({
        program: `return await env.clock.shift({ at: '2026-01-01T00:00:00.000Z', by: '1000' })`,
      }),
    )
    // NumberFromString answers "1000", a Date its ISO text: the JSON codec's form, both ways.
    expect(result).toEqual({ at: '2026-01-01T00:00:01.000Z', count: '1000' })
    expect(seen).toEqual([true, 'number'])
  })

  it('describes the JSON codec it is exchanged as (“exchanged as its canonical JSON codec (Schema.toCodecJson)”)', async () => {
    const described = value(await runtime.execute({ program: `return forage.describe('clock.shift')` })) as {
      input: Record<string, unknown>
      output: Record<string, unknown>
    }
    expect(described.input).toMatchObject({
      type: 'object',
      properties: { at: { type: 'string' }, by: { type: 'string' } },
      required: ['at', 'by'],
    })
    expect(described.output).toMatchObject({ properties: { count: { type: 'string' } } })
  })

  it('answers input the codec refuses as invalid input the model may correct', async () => {
    const result = await runtime.execute({
      program: `try { await env.clock.shift({ at: 5, by: '1' }) } catch (e) { return e.name }`,
    })
    expect(value(result)).toBe('InvalidInput')
  })

  it('makes a throwing transformation a host error, never invalid input (“A throwing filter or transformation is a host error”)', async () => {
    const caught = await runtime.execute({
      program: `try { await env.clock.broken('x') } catch (e) { return e.name }`,
    })
    expect(value(caught)).toBe('CapabilityFailed')
    const escaped = await runtime.execute({ program: `return await env.clock.broken('x')` })
    expect(escaped).toMatchObject({ ok: false, failure: { kind: 'CapabilityFailed', operation: 'broken' } })
  })

  it('makes an output its schema cannot encode a host error', async () => {
    const result = await runtime.execute({ program: `return await env.clock.lying({})` })
    expect(result).toMatchObject({ ok: false, failure: { kind: 'CapabilityFailed', operation: 'lying' } })
  })

  it('sits beside a Standard Schema operation in one module (“an Effect schema or any Standard Schema”)', async () => {
    expect(value(await runtime.execute({ program: `return await clock.zod({ n: 1 })` }))).toBe(2)
    const direct = await runtime.invoke('clock.shift', { at: '2026-01-01T00:00:00.000Z', by: '0' })
    expect(direct).toEqual({ kind: 'value', value: { at: '2026-01-01T00:00:00.000Z', count: '0' } })
  })
})
