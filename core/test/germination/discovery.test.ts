import { describe, expect, it } from 'bun:test'
import { mkdir, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { germinate, StartupRefusal } from '../../germination/index.ts'
import {
  germinateIn,
  manifestOf,
  memoryLogger,
  SqliteStore,
  scratchRoot,
  sporeNamed,
  writeSpore,
} from './fixtures.ts'

const root = scratchRoot()

const respondOnly = (name: string) =>
  manifestOf('enzyme', name, {
    commands: [{ name: 'ping', description: 'ping.description', respond: 'pong' }],
  })

describe('discovery', () => {
  it('finds every immediate subfolder holding spore.yaml, in every folder, and skips missing folders', async () => {
    const first = join(root(), 'spores')
    const second = join(root(), 'data-spores')
    await writeSpore(first, 'alpha', { manifest: respondOnly('alpha') })
    await writeSpore(second, 'beta', { manifest: respondOnly('beta') })
    await mkdir(join(first, 'not-a-spore'), { recursive: true })
    await writeFile(join(first, 'not-a-spore', 'README.md'), 'nothing here')
    await writeSpore(join(first, 'alpha'), 'nested', { manifest: respondOnly('nested') })

    const germination = await germinate({
      folders: [first, join(root(), 'missing'), second],
      store: new SqliteStore(),
      logger: memoryLogger(),
    })

    expect(germination.spores.map((spore) => [spore.name, spore.dir])).toEqual([
      ['alpha', join(first, 'alpha')],
      ['beta', join(second, 'beta')],
    ])
  })

  it('finds nothing in a folder that does not exist, and says so as a warning, reported and logged', async () => {
    const nowhere = join(root(), 'nowhere')
    const { germination, logger } = await germinateIn(nowhere)
    expect(germination.spores).toEqual([])
    expect(germination.warnings).toEqual([{ kind: 'missingFolder', folder: nowhere }])
    const warned = logger.entries.filter((entry) => entry.level === 'warn')
    expect(warned.map((entry) => entry.meta)).toEqual([{ folder: nowhere }])
  })

  it('says nothing of the installs folder before the first install has created it', async () => {
    const installs = join(root(), 'installs')
    const logger = memoryLogger()
    const germination = await germinate({ folders: [installs], store: new SqliteStore(), logger, installs })
    expect(germination.warnings).toEqual([])
    expect(logger.entries.filter((entry) => entry.level === 'warn')).toEqual([])
  })

  it('has no warning when every folder exists', async () => {
    await writeSpore(root(), 'alpha', { manifest: respondOnly('alpha') })
    const { germination, logger } = await germinateIn(root())
    expect(germination.warnings).toEqual([])
    expect(logger.entries.filter((entry) => entry.level === 'warn')).toEqual([])
  })

  it('keeps the first of two folders holding a spore of the same name, setting the other aside with a warning', async () => {
    const first = join(root(), 'a')
    const second = join(root(), 'b')
    const one = await writeSpore(first, 'echo', { manifest: respondOnly('echo') })
    const other = await writeSpore(second, 'echo-copy', { manifest: respondOnly('echo') })
    await writeSpore(second, 'alpha', { manifest: respondOnly('alpha') })

    const logger = memoryLogger()
    const germination = await germinate({ folders: [first, second], store: new SqliteStore(), logger })

    expect(germination.spores.map((spore) => [spore.name, spore.dir, spore.state])).toEqual([
      ['alpha', join(second, 'alpha'), 'live'],
      ['echo', one, 'live'],
    ])
    expect(germination.warnings).toEqual([{ kind: 'nameClash', folder: other, name: 'echo', kept: one }])
    expect(logger.entries.some((entry) => entry.message.includes('set aside'))).toBe(true)
  })

  it('names a spore whose manifest cannot be read after its folder, for the clash check too', async () => {
    const first = join(root(), 'a')
    const second = join(root(), 'b')
    const broken = await writeSpore(first, 'radarr', { manifest: 'kind: [unclosed' })
    const valid = await writeSpore(second, 'radarr', { manifest: manifestOf('rhiza', 'radarr') })

    const germination = await germinate({
      folders: [first, second],
      store: new SqliteStore(),
      logger: memoryLogger(),
    })

    expect(sporeNamed(germination, 'radarr').dir).toBe(broken)
    expect(germination.warnings).toEqual([{ kind: 'nameClash', folder: valid, name: 'radarr', kept: broken }])
  })
})

describe('an entry discovery cannot look into', () => {
  it('is a dormant spore named after its folder, with the reason, beside the spores that germinate', async () => {
    await writeSpore(root(), 'alpha', { manifest: respondOnly('alpha') })
    await symlink(join(root(), 'loop'), join(root(), 'loop'))

    const { germination } = await germinateIn(root(), SqliteStore.enabling('alpha', 'loop'))

    expect(germination.spores.map((spore) => [spore.name, spore.state])).toEqual([
      ['alpha', 'live'],
      ['loop', 'dormant'],
    ])
    const loop = sporeNamed(germination, 'loop')
    expect(loop.dir).toBe(join(root(), 'loop'))
    expect(loop.kind).toBeUndefined()
    expect(loop.reason).toStartWith('spore folder cannot be read: ')
    expect(loop.reason).toContain('ELOOP')
  })

  it('refuses a spore whose spore.yaml is a link loop, or not a file at all', async () => {
    const looped = await writeSpore(root(), 'looped', { manifest: 'placeholder' })
    await Bun.file(join(looped, 'spore.yaml')).delete()
    await symlink(join(looped, 'spore.yaml'), join(looped, 'spore.yaml'))
    await mkdir(join(root(), 'folded', 'spore.yaml'), { recursive: true })

    const { germination } = await germinateIn(root(), SqliteStore.enabling('looped', 'folded'))

    expect(sporeNamed(germination, 'looped').state).toBe('dormant')
    expect(sporeNamed(germination, 'looped').reason).toContain('ELOOP')
    expect(sporeNamed(germination, 'folded').reason).toBe(
      'spore folder cannot be read: spore.yaml is not a regular file',
    )
  })

  it('refuses the start, naming it, when a spores folder exists but cannot be read', async () => {
    const loop = join(root(), 'spores')
    await symlink(loop, loop)

    const refused = germinate({ folders: [loop], store: new SqliteStore(), logger: memoryLogger() })

    await expect(refused).rejects.toBeInstanceOf(StartupRefusal)
    await expect(refused).rejects.toThrow(`spores folder ${loop} cannot be read: `)
  })
})
