import { describe, expect, it } from 'bun:test'
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
    expect(spore.reason).toBe(
      'manifest refused: colour: is not a manifest field; a manifest carries kind, name, septum, description, ' +
        'externals, requires, plus capabilities (hypha), commands (enzyme) or enforcing (inhibitor)',
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
      'septum range "^0.10" excludes septum 1.0.0, the version the core is running',
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
