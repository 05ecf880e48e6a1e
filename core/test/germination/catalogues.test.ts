import { describe, expect, it } from 'bun:test'
import { mkdir, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { germinateIn, manifestOf, SqliteStore, scratchRoot, sporeNamed, writeSpore } from './fixtures.ts'

const root = scratchRoot()

const helpManifest = manifestOf('enzyme', 'helpful', {
  commands: [{ name: 'help', description: 'command.help.description', respond: 'help.text' }],
})

describe('catalogues', () => {
  it('compiles every translations/<locale>.yaml, nested keys flattened to dotted keys', async () => {
    await writeSpore(root(), 'helpful', {
      manifest: helpManifest,
      files: {
        'translations/en.yaml':
          'command:\n  help:\n    description: Show help\nhelp:\n  text: "Hello {name}"\n',
        'translations/fr.yaml': 'help:\n  text: "Bonjour {name}"\n',
        'translations/notes.txt': 'not a catalogue',
      },
    })

    const { germination } = await germinateIn(root(), SqliteStore.enabling('helpful'))

    const spore = sporeNamed(germination, 'helpful')
    expect(spore.state).toBe('live')
    expect([...spore.catalogs.keys()]).toEqual(['en', 'fr'])
    expect([...(spore.catalogs.get('en')?.messages.keys() ?? [])]).toEqual([
      'command.help.description',
      'help.text',
    ])
    expect(spore.catalogs.get('fr')?.messages.get('help.text')?.format({ name: 'Léa' })).toBe('Bonjour Léa')
  })

  it('is fine with no translations folder', async () => {
    await writeSpore(root(), 'helpful', { manifest: helpManifest })

    const { germination } = await germinateIn(root(), SqliteStore.enabling('helpful'))

    expect(sporeNamed(germination, 'helpful').state).toBe('live')
    expect(sporeNamed(germination, 'helpful').catalogs.size).toBe(0)
  })

  it('makes the whole spore dormant when one key fails to compile, naming locale and key', async () => {
    await writeSpore(root(), 'helpful', {
      manifest: helpManifest,
      files: {
        'translations/en.yaml': 'help:\n  text: Fine\n',
        'translations/fr.yaml': 'help:\n  text: Essayez <title> maintenant\n',
      },
    })

    const { germination } = await germinateIn(root(), SqliteStore.enabling('helpful'))

    const spore = sporeNamed(germination, 'helpful')
    expect(spore.state).toBe('dormant')
    expect(spore.reason).toStartWith(
      'translations/fr.yaml does not compile: catalogue "fr", key "help.text": UNCLOSED_TAG',
    )
  })

  it('makes a spore whose translation file is not YAML dormant, naming the locale', async () => {
    await writeSpore(root(), 'helpful', {
      manifest: helpManifest,
      files: { 'translations/de.yaml': 'help: [unclosed\n' },
    })

    const { germination } = await germinateIn(root(), SqliteStore.enabling('helpful'))

    expect(sporeNamed(germination, 'helpful').reason).toStartWith(
      'translations/de.yaml (locale "de") cannot be read: ',
    )
  })

  it('quotes at most a short excerpt of a translation file linked to one that is no catalogue', async () => {
    const other = join(root(), 'passwd')
    const lines = Array.from(
      { length: 60 },
      (_, line) => `user${line}:x:${1000 + line}:/home/user${line}:/bin/sh`,
    )
    await writeFile(other, `${lines.join('\n')}\n`)
    const dir = await writeSpore(join(root(), 'spores'), 'helpful', { manifest: helpManifest })
    await mkdir(join(dir, 'translations'))
    await symlink(other, join(dir, 'translations', 'en.yaml'))

    const { germination } = await germinateIn(join(root(), 'spores'), SqliteStore.enabling('helpful'))

    const { state, reason } = sporeNamed(germination, 'helpful')
    expect(state).toBe('dormant')
    expect(reason).toStartWith(
      'translations/en.yaml does not compile: catalogue "en": expected a mapping of keys',
    )
    expect(reason!.length).toBeLessThanOrEqual(200)
    expect(reason).not.toContain('\n')
    expect(reason).not.toContain('user59')
  })

  it('refuses a translation file past 1 MiB without parsing it', async () => {
    await writeSpore(root(), 'helpful', {
      manifest: helpManifest,
      files: { 'translations/en.yaml': `help:\n  text: "${'a'.repeat(1024 * 1024)}"\n` },
    })

    const { germination } = await germinateIn(root(), SqliteStore.enabling('helpful'))

    expect(sporeNamed(germination, 'helpful').reason).toBe(
      'translations/en.yaml (locale "en") cannot be read: it is larger than 1 MiB',
    )
  })
})
