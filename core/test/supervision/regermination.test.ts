// Operator changes applied to the running bot, through the admin spore as shipped over the real bus:
// each takes effect on the very next message, with no restart of the process.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { realSpore } from '../support/real-spores.ts'
import { startTestCore, type TestCore } from '../support/runtime.ts'
import { GATE, GREETER, greeterModule, type LiveLog, liveLog, TELLER, VAULT } from './live-spores.ts'

let core: TestCore
let log: LiveLog
beforeAll(async () => {
  log = liveLog()
  core = await startTestCore({
    spores: {
      help: realSpore('help'),
      admin: realSpore('admin'),
      vault: VAULT,
      teller: TELLER,
      greeter: GREETER,
      gate: GATE,
    },
  })
})
afterAll(() => core.stop())

const one = async (text: string) => (await core.ask(text)).join('\n')

/** Until a change has begun on the spore (it is stopped or starting). */
async function untilRestarting(name: string): Promise<void> {
  while (!core.assembly.runtime.lifecycle.restarting(name)) await Bun.sleep(0)
}
const greeterFile = (path: string) => join(core.folder, 'spores', 'greeter', path)

describe('enable and disable, in dependency order', () => {
  it('stops a rhiza after what needs it, which then names it; enabling starts both again, in order', async () => {
    expect(await one('/balance')).toBe('balance 42')
    log.events.length = 0
    expect(await one('/disable vault')).toBe('vault is disabled and stopped.')
    expect(log.events).toEqual(['teller stop', 'vault stop'])
    const teller = () => core.germination.byName.get('teller')
    expect(teller()?.state).toBe('dormant')
    expect(teller()?.reason).toBe('needs the connected system "vault", which is disabled')
    expect(await one('/balance')).toBe('/balance is not available right now; the operator can see why.')
    log.events.length = 0
    expect(await one('/enable vault')).toBe('vault is enabled and live.')
    expect(log.events).toEqual(['vault start', 'teller start'])
    expect(teller()?.state).toBe('live')
    expect(await one('/balance')).toBe('balance 42')
  })

  it('takes an enzyme’s commands away at once, and gives them back at once', async () => {
    expect(await one('/disable teller')).toBe('teller is disabled and stopped.')
    expect(await one('/balance')).toStartWith("I don't know the command /balance.")
    expect(await one('/enable teller')).toBe('teller is enabled and live.')
    expect(await one('/balance')).toBe('balance 42')
  })
})

describe('settings', () => {
  it('restarts a live spore with the value written, and says so', async () => {
    log.events.length = 0
    expect(await one('/set greeter word hi')).toBe(
      'word of greeter is saved; greeter restarted with it and is live.',
    )
    expect(log.events).toEqual(['greeter v1 stop', 'greeter v1 start'])
    expect(await one('/greet')).toBe('hi from v1')
    expect(await one('/unset greeter word')).toBe(
      'word of greeter is removed; greeter restarted without it and is live.',
    )
    expect(await one('/greet')).toBe('hello from v1')
  })
})

describe('reload', () => {
  it('reads code and catalogues again from disk: the very next message meets the new module', async () => {
    await Bun.write(greeterFile('src/index.ts'), greeterModule('v2'))
    await Bun.write(greeterFile('translations/en.yaml'), 'greet:\n  description: Greets you warmly\n')
    expect(await one('/reload greeter')).toBe('greeter is read again from disk and live.')
    expect(await one('/greet')).toBe('hello from v2')
    expect(await one('/help greet')).toContain('Greets you warmly')
  })

  it('keeps the running version when the new code cannot be created', async () => {
    await Bun.write(greeterFile('src/index.ts'), "export default { create() { throw new Error('typo') } }\n")
    expect(await one('/reload greeter')).toStartWith('"greeter" was not reloaded: create() failed')
    expect(await one('/greet')).toBe('hello from v2')
    expect(core.germination.byName.get('greeter')?.state).toBe('live')
    await Bun.write(greeterFile('src/index.ts'), greeterModule('v3'))
  })

  it('loses no message of a flood sent during a reload: each is answered, or told to try again', async () => {
    const before = core.sent.length
    const reload = core.say('/reload greeter')
    await untilRestarting('greeter')
    expect(core.assembly.runtime.lifecycle.restarting('greeter')).toBe(true)
    const flood = Array.from({ length: 50 }, () => core.say('/greet'))
    await Promise.all([reload, ...flood])
    const texts = core.sent.slice(before).map((sent) => sent.content.text ?? '')
    expect(texts).toHaveLength(51)
    expect(texts.filter((text) => text.startsWith('greeter is read again'))).toHaveLength(1)
    const greetings = texts.filter((text) => !text.startsWith('greeter is read again'))
    for (const text of greetings) {
      expect(text).toMatch(/^hello from v[23]$|^\/greet is restarting; try again in a moment\.$/)
    }
    expect(await one('/greet')).toBe('hello from v3')
  })

  it('never lets a message past an enforcing inhibitor while it restarts', async () => {
    log.judgedWhileDown = 0
    let done = false
    const reload = core.say('/reload gate').then(() => {
      done = true
    })
    await untilRestarting('gate')
    // Messages keep coming for as long as the gate is being restarted.
    const before = core.sent.length
    const flood: Promise<void>[] = []
    let duringRestart = 0
    while (!done) {
      if (core.assembly.runtime.lifecycle.restarting('gate')) duringRestart++
      flood.push(core.say('/greet'))
      await Bun.sleep(1)
    }
    await Promise.all([reload, ...flood])
    expect(duringRestart).toBeGreaterThan(0)
    expect(log.judgedWhileDown).toBe(0)
    // Those the restarting gate could not judge were refused, silently: fewer answers than asks.
    const answered = core.sent.slice(before).filter((sent) => sent.content.text?.startsWith('hello'))
    expect(answered.length).toBeLessThan(flood.length)
    expect(core.germination.byName.get('gate')?.state).toBe('live')
    expect(await one('/greet')).toBe('hello from v3')
  })
})

const NEWBIE = {
  'spore.yaml': `kind: enzyme
name: newbie
septum: "^1.0"
commands:
  - name: wave
    description: wave.description
    respond: wave.text
`,
  'translations/en.yaml': 'wave:\n  description: Waves\n  text: o/\n',
}

async function writeFolder(folder: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(folder, path, '..'), { recursive: true })
    await Bun.write(join(folder, path), text)
  }
}

describe('rescan', () => {
  it('lists a spore that appeared while running, disabled with its reason, and enabling it works at once', async () => {
    await writeFolder(join(core.folder, 'spores', 'newbie'), NEWBIE)
    expect(await one('/plugins')).not.toContain('newbie')
    expect(await one('/rescan')).toBe('One new spore:\nnewbie — disabled: new: enable it to start it')
    expect(await one('/plugins')).toContain('newbie (commands) — disabled: new: enable it to start it')
    expect(await one('/wave')).toStartWith("I don't know the command /wave.")
    expect(await one('/enable newbie')).toBe('newbie is enabled and live.')
    expect(await one('/wave')).toBe('o/')
    expect(await one('/rescan')).toBe('No new spore was found.')
  })

  it('refuses a newcomer whose name is taken, alone: the bot and the spore it clashes with run on', async () => {
    const twin = join(core.folder, 'spores', 'greeter-twin')
    await writeFolder(twin, GREETER)
    expect(await one('/rescan')).toBe(
      `One new spore:\ngreeter refused: spore "greeter" is also found in ${join(core.folder, 'spores', 'greeter')}; keep only one spore of each name`,
    )
    expect(await one('/greet')).toStartWith('hello from v')
  })
})

const stewardManifest = (scopes: string) => `kind: enzyme
name: steward
septum: "^1.0"
requires:
  - rhiza: mycelium
    scopes: [${scopes}]
commands:
  - name: peek
    description: peek.description
    code: peek
`

describe('a reload that changes what a spore asks for', () => {
  it('grants exactly the new manifest’s scopes, at once', async () => {
    const folder = join(core.folder, 'spores', 'steward')
    await writeFolder(folder, {
      'spore.yaml': stewardManifest('plugins.read'),
      'src/index.ts': `export default { create: () => ({ handlers: {
  async peek(invocation, ctx) { await ctx.reply({ text: typeof ctx.rhiza('mycelium').listPlugins }) },
} }) }
`,
      'translations/en.yaml': 'peek:\n  description: Peeks\n',
    })
    await one('/rescan')
    expect(await one('/enable steward')).toBe('steward is enabled and live.')
    expect(await one('/peek')).toBe('function')
    await Bun.write(join(folder, 'spore.yaml'), stewardManifest(''))
    expect(await one('/reload steward')).toBe('steward is read again from disk and live.')
    expect(await one('/peek')).toBe('undefined')
  })
})

const ringRhiza = (name: string, needs: string) => ({
  'spore.yaml': `kind: rhiza\nname: ${name}\nseptum: "^1.0"\nrequires:\n  - rhiza: ${needs}\n`,
  'src/index.ts': `export default { create: () => ({
  api: {}, async start() {}, async stop() {},
  async health() { return { state: 'healthy', checkedAt: new Date() } },
}) }
`,
})

describe('a cycle brought in while running', () => {
  it('refuses the spore that closes it, alone: the bot runs on', async () => {
    await writeFolder(join(core.folder, 'spores', 'left'), ringRhiza('left', 'right'))
    await writeFolder(join(core.folder, 'spores', 'right'), ringRhiza('right', 'left'))
    await one('/rescan')
    expect(await one('/enable left')).toBe(
      'left is enabled and dormant: its requires close a cycle (optional requirements included): left → right; remove a requires entry to break it.',
    )
    // Refused out of the graph, left no longer closes one: right waits on it instead.
    expect(await one('/enable right')).toBe(
      'right is enabled and dormant: needs the connected system "left", which is dormant.',
    )
    expect(await one('/greet')).toStartWith('hello from v')
  })
})

describe('a cycle and a name clash, at the next start', () => {
  it('leave the spores of the cycle dormant naming it, and the clashing folder aside: the rest start', async () => {
    const folder = join(core.folder, 'next-start')
    const first = await startTestCore({
      folder,
      spores: { admin: realSpore('admin'), greeter: GREETER },
    })
    const ask = async (text: string) => (await first.ask(text)).join('\n')
    try {
      await writeFolder(join(folder, 'spores', 'left'), ringRhiza('left', 'right'))
      await writeFolder(join(folder, 'spores', 'right'), ringRhiza('right', 'left'))
      await writeFolder(join(folder, 'spores', 'greeter-twin'), GREETER)
      await ask('/rescan')
      await ask('/enable left')
      await ask('/enable right')
    } finally {
      await first.stop()
    }
    const next = await startTestCore({ folder, spores: { admin: realSpore('admin'), greeter: GREETER } })
    try {
      expect((await next.ask('/greet')).join('\n')).toStartWith('hello from v')
      for (const name of ['left', 'right']) {
        const spore = next.germination.byName.get(name)
        expect(spore?.state).toBe('dormant')
        expect(spore?.reason).toBe(
          'its requires close a cycle (optional requirements included): left → right; remove a requires entry to break it',
        )
      }
      expect(next.germination.byName.get('greeter')?.dir).toBe(join(folder, 'spores', 'greeter'))
      expect(next.germination.warnings).toContainEqual({
        kind: 'nameClash',
        folder: join(folder, 'spores', 'greeter-twin'),
        name: 'greeter',
        kept: join(folder, 'spores', 'greeter'),
      })
    } finally {
      await next.stop()
    }
  })
})
