import { afterEach, describe, expect, it } from 'bun:test'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { FILMS, inhibitor } from '../rhizomorph/spores.ts'
import { scratchFolder } from '../store/scratch.ts'
import { startTestCore, type TestCore } from '../support/runtime.ts'

// A YAML document that expands to a billion nodes if its aliases are followed.
const ALIAS_BOMB = [
  'a: &a ["x","x","x","x","x","x","x","x","x","x"]',
  'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]',
  'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]',
  'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]',
  'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]',
  'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]',
  'g: [*f,*f,*f,*f,*f,*f,*f,*f,*f,*f]',
].join('\n')

const BREAKAGES: Record<string, (dir: string) => void> = {
  'a YAML syntax error': (dir) => writeFileSync(join(dir, 'spore.yaml'), 'kind: inhibitor\nname: [wall\n'),
  'an alias bomb': (dir) => writeFileSync(join(dir, 'spore.yaml'), ALIAS_BOMB),
  'a kind the schema rejects': (dir) =>
    writeFileSync(join(dir, 'spore.yaml'), 'kind: Inhibitor\nname: wall\nseptum: "^1.0"\n'),
  'a missing folder': (dir) => rmSync(dir, { recursive: true, force: true }),
}

let core: TestCore | undefined
let scratch: { path: string; remove(): void } | undefined
afterEach(async () => {
  await core?.stop()
  core = undefined
  scratch?.remove()
  scratch = undefined
})

const refusals = (c: TestCore) => c.logs().filter((l) => l.msg === 'message refused at admission')

describe('an enforcing inhibitor, whatever state it is in', () => {
  for (const [breakage, breakIt] of Object.entries(BREAKAGES)) {
    it(`keeps refusing all traffic after a restart with ${breakage}, until disabled`, async () => {
      scratch = scratchFolder('fail-closed')
      const folder = scratch.path
      const spores = { films: FILMS, wall: inhibitor('wall', { enforcing: true }) }
      core = await startTestCore({ spores, folder })
      expect(await core.ask('/ping')).toEqual(['pong in English'])
      expect(await core.ask('/ping', { from: 'banned' })).toEqual([])
      await core.stop()

      breakIt(join(folder, 'spores', 'wall'))
      core = await startTestCore({ spores: { films: FILMS }, folder })
      const wall = core.germination.byName.get('wall')
      expect(wall).toMatchObject({ kind: 'inhibitor', enforcing: true, state: 'dormant' })
      expect(wall?.reason).toBeString()
      expect(await core.ask('/ping')).toEqual([])
      expect(await core.ask('/ping', { from: 'banned' })).toEqual([])
      expect(String(refusals(core).at(-1)?.reason)).toContain('all traffic refused')

      // The operator's way out: disable it (it takes effect at the next start).
      core.assembly.runtime.plugins.recordInstall('wall', {
        enabled: false,
        reason: 'disabled by an operator',
      })
      await core.stop()
      core = await startTestCore({ spores: { films: FILMS }, folder })
      expect(await core.ask('/ping')).toEqual(['pong in English'])
    })
  }

  it('an advisory inhibitor that becomes unreadable is simply absent', async () => {
    scratch = scratchFolder('fail-closed')
    const folder = scratch.path
    core = await startTestCore({ spores: { films: FILMS, gate: inhibitor('gate') }, folder })
    await core.stop()
    BREAKAGES['a YAML syntax error']?.(join(folder, 'spores', 'gate'))
    core = await startTestCore({ spores: { films: FILMS }, folder })
    expect(core.germination.byName.get('gate')?.state).toBe('dormant')
    expect(await core.ask('/ping')).toEqual(['pong in English'])
  })
})

describe('reserved names', () => {
  for (const name of ['core', 'common', 'mycelium']) {
    it(`refuses a spore named ${name}, which must not replace the core's own catalogue`, async () => {
      core = await startTestCore({
        spores: {
          films: FILMS,
          [name]: {
            'spore.yaml': `kind: enzyme\nname: ${name}\nseptum: "^1.0"\ncommands:\n  - { name: hijack, description: d, respond: r }\n`,
            'translations/en.yaml':
              'reply:\n  unknownCommand: "pwned"\nrefusal:\n  plugin_unknown: "pwned"\n',
          },
        },
      })
      const spore = core.germination.byName.get(name)
      expect(spore?.state).not.toBe('live')
      expect(spore?.reason).toContain('reserved')
      expect(await core.ask('/nothing-here')).not.toEqual(['pwned'])
      expect((await core.ask('/nothing-here'))[0]).toContain('/nothing-here')
      expect(await core.ask('/hijack')).not.toEqual(['r'])
    })
  }
})

describe('an enforcing inhibitor never read correctly', () => {
  it('refuses all traffic from its first start when its kind is only misspelt', async () => {
    core = await startTestCore({
      spores: {
        films: FILMS,
        wall: {
          'spore.yaml': 'kind: Inhibitor\nname: wall\nseptum: "^1.0"\nenforcing: true\n',
          'src/index.ts': 'export default { create: () => ({ inspect: () => ({ allow: true }) }) }\n',
        },
      },
    })
    expect(core.germination.byName.get('wall')).toMatchObject({ kind: 'inhibitor', enforcing: true })
    expect(await core.ask('/ping')).toEqual([])
  })
})
