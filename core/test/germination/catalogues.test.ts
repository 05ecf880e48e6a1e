import { describe, expect, it } from 'bun:test'
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
})
