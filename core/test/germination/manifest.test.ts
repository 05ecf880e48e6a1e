import { describe, expect, it } from 'bun:test'
import { symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { germinate } from '../../germination/index.ts'
import {
  germinateIn,
  lifecycleModule,
  manifestOf,
  memoryLogger,
  SqliteStore,
  scratchRoot,
  sporeNamed,
  writeSpore,
} from './fixtures.ts'

const root = scratchRoot()

describe('manifest', () => {
  it('makes a spore whose manifest is refused dormant, with the ManifestError message and its field', async () => {
    await writeSpore(root(), 'radarr-helper', {
      manifest: manifestOf('enzyme', 'radarr-helper', {
        commands: [{ name: 'help', description: 'help.description', respond: 'help.text', code: 'help' }],
      }),
    })

    const { germination } = await germinateIn(root(), SqliteStore.enabling('radarr-helper'))

    const spore = sporeNamed(germination, 'radarr-helper')
    expect(spore.state).toBe('dormant')
    expect(spore.kind).toBe('enzyme')
    expect(spore.manifest).toBeUndefined()
    expect(spore.reason).toStartWith('manifest refused: commands.0')
  })

  it('names the field at fault for a missing required field', async () => {
    await writeSpore(root(), 'nameless', { manifest: { kind: 'rhiza', name: 'nameless' } })

    const { germination } = await germinateIn(root())

    expect(sporeNamed(germination, 'nameless').reason).toStartWith('manifest refused: septum: ')
  })

  it('makes a spore whose spore.yaml is not YAML dormant under its folder name', async () => {
    await writeSpore(root(), 'garbled', { manifest: 'kind: enzyme\nname: [unclosed\n' })

    const { germination } = await germinateIn(root(), SqliteStore.enabling('garbled'))

    const spore = sporeNamed(germination, 'garbled')
    expect(spore.state).toBe('dormant')
    expect(spore.kind).toBeUndefined()
    expect(spore.reason).toStartWith('spore.yaml cannot be read: ')
  })

  it('reads kind and enforcing from the raw document when the manifest is refused', async () => {
    await writeSpore(root(), 'gate', {
      manifest: { kind: 'inhibitor', name: 'gate', septum: '^1.0', enforcing: true, colour: 'red' },
    })

    const { germination } = await germinateIn(root())

    const spore = sporeNamed(germination, 'gate')
    expect(spore.state).toBe('dormant')
    // The list of fields grows with septum (1.1 adds routes); a reason is cut to its excerpt length.
    expect(spore.reason).toStartWith(
      'manifest refused: colour: is not a manifest field; a manifest carries kind, name, septum, description, ' +
        'externals, requires, routes',
    )
    expect(spore.kind).toBe('inhibitor')
    expect(spore.enforcing).toBe(true)
  })

  it('reads enforcing from a valid inhibitor manifest, false by default', async () => {
    await writeSpore(root(), 'strict', {
      manifest: manifestOf('inhibitor', 'strict', { enforcing: true }),
      files: { 'src/index.ts': lifecycleModule('inhibitor', 'strict') },
    })
    await writeSpore(root(), 'lenient', {
      manifest: manifestOf('inhibitor', 'lenient'),
      files: { 'src/index.ts': lifecycleModule('inhibitor', 'lenient') },
    })

    const { germination } = await germinateIn(root())

    expect(sporeNamed(germination, 'strict').enforcing).toBe(true)
    expect(sporeNamed(germination, 'lenient').enforcing).toBe(false)
    expect(sporeNamed(germination, 'strict').state).toBe('live')
  })
})

// A file that is no manifest, as /etc/passwd is: many lines of text YAML reads as one long string.
const PASSWD = Array.from(
  { length: 60 },
  (_, line) => `user${line}:x:${1000 + line}:${1000 + line}:User ${line}:/home/user${line}:/bin/sh`,
).join('\n')

/** A refusal as the report and chat will show it: one line, short, quoting none of the file's tail. */
function expectExcerpt(reason: string | undefined): void {
  expect(reason).toBeDefined()
  expect(reason!.length).toBeLessThanOrEqual(200)
  expect(reason).not.toContain('\n')
  expect(reason).not.toContain('user59')
}

describe('a manifest refusal quotes a short excerpt at most', () => {
  it('for a spore.yaml linked to a file that is not a manifest', async () => {
    const passwd = join(root(), 'passwd')
    await writeFile(passwd, `${PASSWD}\n`)
    const dir = await writeSpore(join(root(), 'spores'), 'impostor', { manifest: 'placeholder' })
    await Bun.file(join(dir, 'spore.yaml')).delete()
    await symlink(passwd, join(dir, 'spore.yaml'))

    const { germination } = await germinateIn(join(root(), 'spores'), SqliteStore.enabling('impostor'))

    const spore = sporeNamed(germination, 'impostor')
    expect(spore.state).toBe('dormant')
    expect(spore.reason).toStartWith('manifest refused: a manifest must be a mapping of fields')
    expectExcerpt(spore.reason)
  })

  it('for a YAML syntax error: the position, not the lines around it', async () => {
    const manifest = `kind: enzyme\nname: [unclosed\ndescription: ${'x'.repeat(300)}\n`
    await writeSpore(root(), 'garbled', { manifest })

    const { germination } = await germinateIn(root(), SqliteStore.enabling('garbled'))

    const { reason } = sporeNamed(germination, 'garbled')
    expect(reason).toMatch(/^spore\.yaml cannot be read: .+ at line \d+, column \d+$/)
    expect(reason).not.toContain('xxxx')
  })

  it('for a value the schema refuses, however long', async () => {
    await writeSpore(root(), 'wordy', { manifest: { kind: 'rhiza', name: 'wordy', septum: PASSWD } })

    const { germination } = await germinateIn(root())

    const { reason } = sporeNamed(germination, 'wordy')
    expect(reason).toStartWith('manifest refused: septum: ')
    expectExcerpt(reason)
  })

  it('names a refused spore after its folder when the raw name is not a well-formed name', async () => {
    await writeSpore(root(), 'odd', { manifest: { kind: 'rhiza', name: PASSWD, septum: '^1.0' } })

    const { germination } = await germinateIn(root())

    expect(germination.spores.map((spore) => spore.name)).toEqual(['odd'])
    expectExcerpt(sporeNamed(germination, 'odd').reason)
  })
})

describe('a spore.yaml too big or too expanding to be a manifest', () => {
  it('is refused unparsed past 64 KiB', async () => {
    const manifest = `kind: rhiza\nname: big\nseptum: "^1.0"\ndescription: "${'a'.repeat(64 * 1024)}"\n`
    await writeSpore(root(), 'big', { manifest })

    const { germination } = await germinateIn(root(), SqliteStore.enabling('big'))

    const spore = sporeNamed(germination, 'big')
    expect(spore.state).toBe('dormant')
    expect(spore.reason).toBe('spore.yaml cannot be read: it is larger than 64 KiB')
  })

  it('is refused when its aliases would expand past the limit (a billion laughs)', async () => {
    const levels = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for (let level = 1; level < 9; level++) {
      const name = String.fromCharCode(97 + level)
      const previous = `*${String.fromCharCode(96 + level)}`
      levels.push(`${name}: &${name} [${Array(9).fill(previous).join(', ')}]`)
    }
    await writeSpore(root(), 'laughs', {
      manifest: `kind: rhiza\nname: laughs\nseptum: "^1.0"\n${levels.join('\n')}\n`,
    })

    const { germination } = await germinateIn(root(), SqliteStore.enabling('laughs'))

    const spore = sporeNamed(germination, 'laughs')
    expect(spore.state).toBe('dormant')
    expect(spore.reason).toBe('spore.yaml cannot be read: it uses aliases past the limit of 100 expansions')
  })
})

describe('septum range', () => {
  it('makes a spore whose septum range excludes the running septum dormant, saying why', async () => {
    await writeSpore(root(), 'old', {
      manifest: manifestOf('rhiza', 'old', { septum: '^0.10' }),
      files: { 'src/index.ts': lifecycleModule('rhiza', 'old') },
    })

    const { germination } = await germinateIn(root(), SqliteStore.enabling('old'))

    const spore = sporeNamed(germination, 'old')
    expect(spore.state).toBe('dormant')
    expect(spore.reason).toStartWith(
      'septum range "^0.10" excludes septum 1.1.0, the version the core is running',
    )
  })

  it('checks the range against the septum version it is given', async () => {
    await writeSpore(root(), 'current', {
      manifest: manifestOf('rhiza', 'current', { septum: '^1.0' }),
      files: { 'src/index.ts': lifecycleModule('rhiza', 'current') },
    })

    const germination = await germinate({
      folders: [root()],
      store: new SqliteStore(),
      logger: memoryLogger(),
      septumVersion: '2.0.0',
    })

    expect(sporeNamed(germination, 'current').reason).toStartWith(
      'septum range "^1.0" excludes septum 2.0.0, the version the core is running',
    )
  })

  it('makes a spore whose range is too wide dormant: the manifest parser refuses it', async () => {
    await writeSpore(root(), 'wide', {
      manifest: manifestOf('rhiza', 'wide', { septum: '>=0.0.1' }),
      files: { 'src/index.ts': lifecycleModule('rhiza', 'wide') },
    })

    const { germination } = await germinateIn(root())

    expect(sporeNamed(germination, 'wide').reason).toStartWith(
      'manifest refused: septum: septum range ">=0.0.1" is too wide',
    )
  })
})
