import { describe, expect, it } from 'bun:test'
import { enzymeChecks } from '@mycelo/septum/conformance'
import module from '../src/index.ts'
import { FakeMycelium } from './fake-mycelium.ts'
import { catalogs, commands, contextFor, keysOf, manifest, run } from './harness.ts'

describe('admin spore', () => {
  it('conforms to the Enzyme contract, catalogues included', async () => {
    const mycelium = new FakeMycelium()
    const failures = await enzymeChecks({
      name: 'admin',
      manifest,
      module,
      catalogs,
      context: () => contextFor(mycelium, { replies: [], warnings: [] }),
    })
    expect(failures).toEqual([])
  })

  it('has the same keys in English and French', () => {
    expect(keysOf('fr')).toEqual(keysOf('en'))
  })

  it('answers every command that needs arguments with its usage sentence on an empty bag', async () => {
    const needing = commands.filter((command) => command.args?.some((arg) => arg.required))
    expect(needing.length).toBe(30)
    for (const command of needing) {
      const english = await run(new FakeMycelium(), command.name)
      expect(english.reply).toStartWith(`Usage: /${command.name} <`)
      const french = await run(new FakeMycelium(), command.name, { locale: 'fr' })
      expect(french.reply).toStartWith(`Utilisation : /${command.name} <`)
    }
  })

  it('repeats the command the way the reader typed it, qualified or with another prefix', async () => {
    const { reply } = await run(new FakeMycelium(), 'enable', { typed: '!admin.enable' })
    expect(reply).toBe('Usage: !admin.enable <spore>')
  })

  it('answers the usage sentence when only some of the arguments came', async () => {
    const mycelium = new FakeMycelium()
    expect((await run(mycelium, 'set', { args: { spore: 'radarr', key: 'url' } })).reply).toBe(
      "Usage: /set <spore> <key> <value> (the value is read by the setting's type, as form lists it)",
    )
    expect((await run(mycelium, 'grant', { args: { principal: 'me' } })).reply).toBe(
      'Usage: /grant <principal> <role>',
    )
    expect((await run(mycelium, 'role-create', { args: { role: 'movies', patterns: ' , ' } })).reply).toBe(
      'Usage: /role-create <role> <patterns> (such as: movies.* ping.ping)',
    )
  })

  it('renders a refusal from the common domain in the reader’s locale', async () => {
    const mycelium = new FakeMycelium()
    expect((await run(mycelium, 'review', { args: { principal: 'p-nobody' } })).reply).toBe(
      'No person has the id p-nobody.',
    )
    expect((await run(mycelium, 'review', { args: { principal: 'p-nobody' }, locale: 'fr' })).reply).toBe(
      'Aucune personne n’a l’identifiant p-nobody.',
    )
  })

  it('falls back to naming the refusal’s key when its domain cannot be read, and warns', async () => {
    const mycelium = new FakeMycelium()
    mycelium.refusalDomain = 'core'
    const english = await run(mycelium, 'enable', { args: { spore: 'ghost' } })
    expect(english.reply).toBe('Refused (refusal.unknownPlugin).')
    expect(english.warnings).toEqual(['a refusal names a domain this spore may not read'])
    const french = await run(mycelium, 'enable', { args: { spore: 'ghost' }, locale: 'fr' })
    expect(french.reply).toBe('Refusé (refusal.unknownPlugin).')
  })
})
