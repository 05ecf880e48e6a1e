import { describe, expect, it } from 'bun:test'
import { parse } from 'yaml'
import { ManifestError, manifestErrorOf, parseManifest, type Requirement } from '../src/index.ts'
import { enzyme, expectRefusal, refusalOf, rhiza } from './manifest-refusal.ts'

const RADARR_HELPER = `
kind: enzyme
name: radarr-helper
septum: "^1.0"
description: Movie shortcuts for Radarr
commands:
  - name: help
    description: command.help.description
    respond: help.text
  - name: add
    description: command.add.description
    code: addMovie
    capabilities: [reactions]
    args:
      - name: title
        description: arg.title.description
        required: true
`

describe('parseManifest accepts', () => {
  it('the radarr-helper manifest', () => {
    expect(parseManifest(parse(RADARR_HELPER))).toEqual({
      kind: 'enzyme',
      name: 'radarr-helper',
      septum: '^1.0',
      description: 'Movie shortcuts for Radarr',
      commands: [
        { name: 'help', description: 'command.help.description', respond: 'help.text' },
        {
          name: 'add',
          description: 'command.add.description',
          code: 'addMovie',
          capabilities: ['reactions'],
          args: [{ name: 'title', description: 'arg.title.description', required: true }],
        },
      ],
    })
  })

  it('a mycelium requirement with scopes', () => {
    const manifest = parseManifest(
      parse(
        'kind: rhiza\nname: lister\nseptum: ^1.0\nrequires: [{ rhiza: mycelium, scopes: [plugins.read] }]\n',
      ),
    )
    expect(manifest.requires).toEqual([{ rhiza: 'mycelium', scopes: ['plugins.read'] }])
  })

  it('an any_of requirement', () => {
    const manifest = parseManifest(
      parse(
        'kind: enzyme\nname: media\nseptum: ^1.0\ncommands: [{ name: a, description: d, respond: r }]\n' +
          'requires:\n  - any_of:\n      - rhiza: radarr\n      - rhiza: sonarr\n',
      ),
    )
    expect(manifest.requires).toEqual([{ any_of: [{ rhiza: 'radarr' }, { rhiza: 'sonarr' }] }])
  })

  it('optional requirements, an empty scopes list and scoped any_of alternatives', () => {
    const requires: Requirement[] = [
      { rhiza: 'plex', optional: true },
      { rhiza: 'mycelium', scopes: [] },
      { any_of: [{ rhiza: 'radarr' }, { rhiza: 'mycelium', scopes: ['health.read'] }], optional: false },
    ]
    expect(parseManifest(rhiza({ requires })).requires).toEqual(requires)
  })

  it('externals and a description', () => {
    const manifest = parseManifest(rhiza({ description: 'Radarr', externals: ['discord.js', '@scope/pkg'] }))
    expect(manifest).toEqual({
      kind: 'rhiza',
      name: 'radarr',
      septum: '^1.0',
      description: 'Radarr',
      externals: ['discord.js', '@scope/pkg'],
    })
  })

  it('a hypha with no capabilities, defaulting them to an empty list', () => {
    expect(parseManifest({ kind: 'hypha', name: 'signal', septum: '^1.0' })).toEqual({
      kind: 'hypha',
      name: 'signal',
      septum: '^1.0',
      capabilities: [],
    })
  })

  it('a hypha with every capability', () => {
    const capabilities = ['attachments', 'reactions', 'threads', 'group_membership']
    expect(parseManifest({ kind: 'hypha', name: 'discord', septum: '^1.0', capabilities })).toMatchObject({
      capabilities,
    })
  })

  it('an inhibitor, defaulting enforcing to false and keeping an explicit true', () => {
    const inhibitor = { kind: 'inhibitor', name: 'allowlist', septum: '>=1.0.0 <2.0.0' } as const
    expect(parseManifest(inhibitor)).toEqual({ ...inhibitor, enforcing: false })
    expect(parseManifest({ ...inhibitor, enforcing: true })).toEqual({ ...inhibitor, enforcing: true })
  })

  it('an arg without required, defaulting it to false', () => {
    const commands = [
      { name: 'add', description: 'd', code: 'addMovie', args: [{ name: 'title', description: 'a' }] },
    ]
    const manifest = parseManifest(enzyme({ commands }))
    expect(manifest.kind === 'enzyme' && manifest.commands[0]).toEqual({
      name: 'add',
      description: 'd',
      code: 'addMovie',
      args: [{ name: 'title', description: 'a', required: false }],
    })
  })

  it('names made of digits and dashes', () => {
    expect(parseManifest(rhiza({ name: '4k-radarr-2' })).name).toBe('4k-radarr-2')
  })
})

describe('the whole document', () => {
  for (const [label, value, got] of [
    ['null', null, 'not null'],
    ['a list', [], 'not a list'],
    ['a string', 'kind: enzyme', 'not the text "kind: enzyme"'],
  ] as const) {
    it(`refuses ${label} at the empty path`, () => {
      const error = expectRefusal(value, '', 'a manifest must be a mapping of fields')
      expect(error.message).toContain(got)
    })
  }
})

describe('kind', () => {
  it('refuses an unknown kind, listing the four', () => {
    expectRefusal(rhiza({ kind: 'plugin' }), 'kind', '"plugin" is not a plugin kind')
    expect(refusalOf(rhiza({ kind: 'plugin' })).message).toContain('hypha, rhiza, enzyme or inhibitor')
  })

  it('refuses a missing kind', () => {
    expectRefusal({ name: 'radarr', septum: '^1.0' }, 'kind', 'kind: is missing; it must be one of hypha')
  })

  it('refuses a kind that is not text', () => {
    expectRefusal(rhiza({ kind: 3 }), 'kind', 'must be one of hypha, rhiza, enzyme or inhibitor, not 3')
  })
})

describe('name', () => {
  it('refuses a missing name', () => {
    expectRefusal({ kind: 'rhiza', septum: '^1.0' }, 'name', 'is missing; every manifest names its plugin')
  })

  for (const name of ['Radarr', 'radarr_helper', '-radarr', '', 'radarr helper']) {
    it(`refuses the name ${JSON.stringify(name)}`, () => {
      expectRefusal(
        rhiza({ name }),
        'name',
        'use only lowercase letters, digits and dashes, starting with a letter',
      )
    })
  }

  it('refuses a name that is not text', () => {
    expectRefusal(rhiza({ name: 42 }), 'name', 'must be a name, not 42')
  })
})

describe('septum', () => {
  it('refuses a missing septum', () => {
    expectRefusal(
      { kind: 'rhiza', name: 'radarr' },
      'septum',
      'is missing; every manifest declares the septum range',
    )
  })

  it('refuses an empty septum by its minimum length, before the range is parsed', () => {
    const error = expectRefusal(rhiza({ septum: '' }), 'septum', 'must not be empty')
    expect(error.message).not.toContain('cannot be parsed')
  })

  it('reads a bare `septum:` in YAML as an empty range', () => {
    expectRefusal(parse('kind: rhiza\nname: radarr\nseptum:\n'), 'septum', 'must not be empty')
  })

  it('refuses a septum that is not text', () => {
    expectRefusal(rhiza({ septum: 1 }), 'septum', 'must be a version range such as ^1.0, not 1')
  })

  for (const septum of ['latest', '1.2.3.4', '^0.10.', '>=x', '||']) {
    it(`refuses the unparseable range ${septum} with the matcher's message`, () => {
      expectRefusal(rhiza({ septum }), 'septum', `septum range "${septum}" cannot be parsed`)
    })
  }

  for (const septum of ['*', 'x', 'X', 'x || x', '>=0.0.1']) {
    it(`refuses the too-wide range ${septum} with the matcher's message`, () => {
      expectRefusal(rhiza({ septum }), 'septum', `septum range "${septum}" is too wide`)
    })
  }

  for (const septum of ['^0.10', '>=0.10.0', '0.10.x', '>=0.9 <0.12', '1.2.3 - 2.3.4', '^1.0 || ^2.0']) {
    it(`accepts the range ${septum}`, () => {
      expect(parseManifest(rhiza({ septum })).septum).toBe(septum)
    })
  }
})

describe('description and externals', () => {
  it('refuses a description that is not text', () => {
    expectRefusal(rhiza({ description: ['a'] }), 'description', 'must be a string, not a list')
  })

  it('refuses externals that are not a list', () => {
    expectRefusal(rhiza({ externals: 'discord.js' }), 'externals', 'must be a list of npm package names')
  })

  it('refuses an empty external', () => {
    expectRefusal(
      rhiza({ externals: ['discord.js', ''] }),
      'externals.1',
      'must be an npm package name, not empty',
    )
  })

  it('refuses an external that is not text', () => {
    expectRefusal(rhiza({ externals: [7] }), 'externals.0', 'must be an npm package name, not 7')
  })
})

describe('fields that do not belong', () => {
  it('refuses an unknown top-level key, naming it', () => {
    expectRefusal(rhiza({ require: [{ rhiza: 'radarr' }] }), 'require', 'is not a manifest field')
  })

  it('reports a misspelt required field by the key written, not as a missing field', () => {
    expectRefusal({ kind: 'rhiza', nmae: 'radarr', septum: '^1.0' }, 'nmae', 'is not a manifest field')
  })

  it('refuses commands on a hypha', () => {
    const hypha = { kind: 'hypha', name: 'signal', septum: '^1.0', commands: [] }
    expectRefusal(hypha, 'commands', 'only an enzyme manifest declares commands, and this one is a hypha')
  })

  it('refuses capabilities on a rhiza', () => {
    expectRefusal(rhiza({ capabilities: [] }), 'capabilities', 'only a hypha manifest declares capabilities')
  })

  it('refuses enforcing on an enzyme', () => {
    expectRefusal(enzyme({ enforcing: true }), 'enforcing', 'only an inhibitor manifest declares enforcing')
  })
})

describe('ManifestError', () => {
  it('is an Error named ManifestError, and manifestErrorOf answers it without throwing', () => {
    const error = manifestErrorOf(rhiza({ name: 'Bad' }))
    expect(error).toBeInstanceOf(ManifestError)
    expect(error).toBeInstanceOf(Error)
    expect(error?.name).toBe('ManifestError')
    expect(error?.path).toBe('name')
    expect(manifestErrorOf(rhiza())).toBeUndefined()
  })
})
