import { expect, it } from 'bun:test'
import { alternativesOf, parseManifest, readableDomains } from '@mycelo/septum'

const manifest = parseManifest({
  kind: 'rhiza',
  name: 'watcher',
  septum: '^1.0',
  requires: [
    { rhiza: 'mycelium', scopes: ['plugins.read'] },
    { any_of: [{ rhiza: 'radarr' }, { rhiza: 'sonarr' }] },
    { rhiza: 'plex', optional: true },
  ],
})

it("lists a requirement's rhizas: the one it names, or each any_of alternative", () => {
  expect((manifest.requires ?? []).map((r) => alternativesOf(r).map((a) => a.rhiza))).toEqual([
    ['mycelium'],
    ['radarr', 'sonarr'],
    ['plex'],
  ])
})

it('lets a spore read its own domain, common, and every rhiza it lists, and nothing else', () => {
  const domains = readableDomains(manifest.name, manifest.requires)
  expect([...domains].sort()).toEqual(['common', 'mycelium', 'plex', 'radarr', 'sonarr', 'watcher'])
  expect(domains.has('core')).toBe(false)
  expect([...readableDomains('lonely')].sort()).toEqual(['common', 'lonely'])
})
