import { expect, it } from 'bun:test'
import type { InhibitorContext } from '@mycelo/septum'
import { InhibitorRoster } from '../../admission/roster.ts'
import type { GerminatedSpore } from '../../germination/index.ts'

const spore = (name: string, kind: GerminatedSpore['kind'], enforcing = false): GerminatedSpore => ({
  name,
  dir: `/spores/${name}`,
  kind,
  manifest: undefined,
  state: 'live',
  reason: undefined,
  enforcing,
  edges: [],
  mandatory: [],
  configSchema: undefined,
  config: {},
  secrets: [],
  catalogs: new Map(),
  operations: undefined,
  migrations: [],
  instance: { inspect: () => ({ allow: true }) },
})

const context = {} as InhibitorContext

it('answers the same list while nothing changed, and a new one as soon as an inhibitor changes state', () => {
  const gate = spore('gate', 'inhibitor', true)
  const quiet = spore('quiet', 'inhibitor')
  const roster = new InhibitorRoster([gate, spore('help', 'enzyme'), quiet], () => context)
  const first = roster.current()
  expect(first.map((member) => [member.name, member.usable])).toEqual([
    ['gate', true],
    ['quiet', true],
  ])
  expect(roster.current()).toBe(first)

  // An enforcing inhibitor that fails is unusable at the very next message: admission fails closed.
  gate.state = 'dormant'
  gate.reason = 'start() threw'
  gate.instance = undefined
  const after = roster.current()
  expect(after).not.toBe(first)
  expect(after[0]).toEqual({ name: 'gate', enforcing: true, usable: false, reason: 'start() threw' })

  quiet.state = 'disabled'
  expect(roster.current().map((member) => member.name)).toEqual(['gate'])

  // A restart gives a new instance in the same state: the new instance is the one asked.
  gate.state = 'live'
  gate.reason = undefined
  gate.instance = { inspect: () => ({ allow: false, reason: 'new' }) }
  const restarted = roster.current()[0]!
  expect(restarted.usable && restarted.inhibitor).toBe(gate.instance as never)
})
