// A spore that runs in its own host offers its operations as an inline one does: decoded, run and
// encoded in its host, described to the agent as plain JSON Schema.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { createBotAgent } from '../../agent/index.ts'
import { principalsRead } from '../../mycelium/principals.ts'
import { type Bot, probeEnzyme, probeHypha, startBot } from '../mycelium/harness.ts'

const OPERATIONS = `import { Schema, SchemaGetter } from 'effect'
import { z } from 'zod'
const operations = {
  'entries.since': {
    description: 'Entries after a moment',
    access: 'read',
    input: Schema.Struct({ after: Schema.Date }),
    output: Schema.Struct({ year: Schema.NumberFromString, where: Schema.String }),
    run: ({ after }) => ({ year: after.getUTCFullYear(), where: Bun.isMainThread ? 'inline' : 'host' }),
  },
  'entries.count': { access: 'read', input: z.object({ n: z.number() }), output: z.number(), run: ({ n }) => n + 1 },
  'entries.broken': {
    access: 'read',
    input: Schema.String.pipe(Schema.decodeTo(Schema.Number, {
      decode: SchemaGetter.transform(() => { throw new Error('the transformation broke') }),
      encode: SchemaGetter.transform((n) => String(n)),
    })),
    output: Schema.Number,
    run: (n) => n,
  },
}
`

let bot: Bot
let owner: string

beforeAll(async () => {
  bot = await startBot({
    spores: {
      chat: probeHypha('chat'),
      // Its own spore, not a probe: a probe reaches into the test's process, which a host cannot.
      ledger: {
        ...probeEnzyme('ledger'),
        files: {
          'src/index.ts': `${OPERATIONS}
export default { operations, create: () => ({ handlers: { async noop() {} } }) }
`,
        },
      },
    },
    config: { isolation: { default: 'inline', spores: { ledger: 'worker' } } },
  })
  owner = (await principalsRead(bot.runtime).findByIdentity('chat', 'boss'))!.id
}, 60_000)

afterAll(async () => {
  await bot.stop()
})

describe('the operations of a spore in its own host', () => {
  it('are described, decoded, run and encoded in the host', async () => {
    const agent = createBotAgent(bot.runtime, { principalId: owner, agent: 'test' })
    const result = await agent.execute({
      program: `return [
        await spores.ledger.entries.since({ after: '2026-03-01T00:00:00.000Z' }),
        await spores.ledger.entries.count({ n: 1 }),
        forage.describe('spores.ledger.entries.since').input,
        forage.describe('spores.ledger.entries.count').input.properties,
        await (async () => { try { await spores.ledger.entries.count({ n: 'x' }) } catch (e) { return e.name } })(),
      ]`,
    })
    expect(result).toMatchObject({
      ok: true,
      value: [
        { year: '2026', where: 'host' },
        2,
        { type: 'object', properties: { after: { type: 'string' } } },
        { n: { type: 'number' } },
        'InvalidInput',
      ],
    })
  })

  it('make a throwing transformation a host error there too', async () => {
    const agent = createBotAgent(bot.runtime, { principalId: owner, agent: 'test' })
    const result = await agent.execute({ program: `return await spores.ledger.entries.broken('x')` })
    expect(result).toMatchObject({ ok: false, failure: { kind: 'CapabilityFailed', module: 'ledger' } })
  })
})
