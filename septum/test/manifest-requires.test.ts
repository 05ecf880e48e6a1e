import { describe, it } from 'bun:test'
import { expectRefusal, rhiza } from './manifest-refusal.ts'

const requiring = (...requires: unknown[]) => rhiza({ name: 'media', requires })

describe('requires', () => {
  it('refuses requires that is not a list', () => {
    expectRefusal(
      rhiza({ requires: { rhiza: 'radarr' } }),
      'requires',
      'must be a list of requirements, not a mapping',
    )
  })

  it('refuses a requirement that is not a mapping', () => {
    expectRefusal(
      requiring('radarr'),
      'requires.0',
      'must be a mapping with rhiza or any_of, not the text "radarr"',
    )
  })

  it('refuses a requirement with neither rhiza nor any_of', () => {
    expectRefusal(
      requiring({ optional: true }),
      'requires.0',
      'a requirement names a rhiza or lists any_of alternatives',
    )
  })

  it('refuses a requirement with both rhiza and any_of', () => {
    const both = { rhiza: 'plex', any_of: [{ rhiza: 'radarr' }, { rhiza: 'sonarr' }] }
    expectRefusal(requiring(both), 'requires.0', 'names either one rhiza or any_of, not both')
  })

  it('refuses an unknown key in a requirement, naming it', () => {
    expectRefusal(
      requiring({ rhiza: 'radarr', version: '1' }),
      'requires.0.version',
      'is not a requirement field',
    )
  })

  it('reports a misspelt rhiza key by the key written', () => {
    expectRefusal(requiring({ rhzia: 'radarr' }), 'requires.0.rhzia', 'is not a requirement field')
  })

  it('refuses a rhiza that is not text', () => {
    expectRefusal(requiring({ rhiza: 5 }), 'requires.0.rhiza', 'must be a rhiza name, not 5')
  })

  it('refuses an empty rhiza', () => {
    expectRefusal(requiring({ rhiza: '' }), 'requires.0.rhiza', 'must name a rhiza, not be empty')
  })

  it('refuses an optional flag that is not a boolean', () => {
    expectRefusal(
      requiring({ rhiza: 'radarr', optional: 'yes' }),
      'requires.0.optional',
      'must be true or false',
    )
  })
})

describe('scopes', () => {
  it('refuses scopes on a rhiza other than the mycelium', () => {
    const error = expectRefusal(
      requiring({ rhiza: 'radarr', scopes: ['plugins.read'] }),
      'requires.0.scopes',
      'only the mycelium has a scope model',
    )
    expectRefusal(
      requiring({ rhiza: 'radarr', scopes: [] }),
      error.path,
      'only the mycelium has a scope model',
    )
  })

  it('refuses an unknown scope, naming it', () => {
    expectRefusal(
      requiring({ rhiza: 'mycelium', scopes: ['plugins.read', 'plugins.write'] }),
      'requires.0.scopes.1',
      '"plugins.write" is not a mycelium scope',
    )
  })

  it('refuses scopes that are not a list', () => {
    expectRefusal(
      requiring({ rhiza: 'mycelium', scopes: 'plugins.read' }),
      'requires.0.scopes',
      'must be a list of scope names',
    )
  })

  it('refuses a scope that is not text', () => {
    expectRefusal(
      requiring({ rhiza: 'mycelium', scopes: [1] }),
      'requires.0.scopes.0',
      '1 is not a scope name',
    )
  })

  it('refuses scopes beside any_of', () => {
    const alternatives = [{ rhiza: 'mycelium' }, { rhiza: 'radarr' }]
    expectRefusal(
      requiring({ any_of: alternatives, scopes: ['plugins.read'] }),
      'requires.0.scopes',
      'scopes belong on the alternative inside any_of',
    )
  })
})

describe('any_of', () => {
  it('refuses fewer than two alternatives', () => {
    expectRefusal(
      requiring({ any_of: [{ rhiza: 'radarr' }] }),
      'requires.0.any_of',
      'must list at least two alternatives',
    )
  })

  it('refuses any_of that is not a list', () => {
    expectRefusal(requiring({ any_of: 'radarr' }), 'requires.0.any_of', 'must be a list of alternatives')
  })

  it('refuses an alternative that is not a mapping', () => {
    expectRefusal(
      requiring({ any_of: [{ rhiza: 'radarr' }, 'sonarr'] }),
      'requires.0.any_of.1',
      'must be a mapping with a rhiza, not the text "sonarr"',
    )
  })

  it('refuses an alternative without a rhiza', () => {
    expectRefusal(requiring({ any_of: [{ rhiza: 'radarr' }, {}] }), 'requires.0.any_of.1.rhiza', 'is missing')
  })

  it('refuses an unknown key in an alternative, naming it', () => {
    const nested = { any_of: [{ rhiza: 'radarr' }, { any_of: [] }] }
    expectRefusal(requiring(nested), 'requires.0.any_of.1.any_of', 'is not a field of an any_of alternative')
  })

  it('refuses scopes on an alternative other than the mycelium', () => {
    const alternatives = [{ rhiza: 'radarr', scopes: ['plugins.read'] }, { rhiza: 'sonarr' }]
    expectRefusal(
      requiring({ any_of: alternatives }),
      'requires.0.any_of.0.scopes',
      'only the mycelium has a scope model',
    )
  })

  it('refuses an unknown scope on a mycelium alternative', () => {
    const alternatives = [{ rhiza: 'radarr' }, { rhiza: 'mycelium', scopes: ['root'] }]
    expectRefusal(
      requiring({ any_of: alternatives }),
      'requires.0.any_of.1.scopes.0',
      '"root" is not a mycelium scope',
    )
  })
})
