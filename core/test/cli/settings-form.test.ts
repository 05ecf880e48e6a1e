// `bun run mycelo form <spore>`: the settings form read from the spore's schema, each field's label
// and help from its catalogue in the bot's language, a field with a default not marked required.
import { afterAll, describe, expect, it } from 'bun:test'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { runCli } from '../boot/process.ts'
import { scratchFolder } from '../store/scratch.ts'
import { LABELLED_SPORE } from '../support/labelled-spore.ts'

const scratch = scratchFolder('cli-form')
afterAll(() => scratch.remove())

/** A bot's folder with the labelled spore, speaking `locale`. */
function botIn(locale: string): string {
  const folder = join(scratch.path, locale)
  for (const [path, text] of Object.entries(LABELLED_SPORE)) {
    mkdirSync(dirname(join(folder, 'spores', 'forecast', path)), { recursive: true })
    writeFileSync(join(folder, 'spores', 'forecast', path), text)
  }
  const config = join(folder, 'mycelo.yaml')
  writeFileSync(
    config,
    `spores: [spores]\ndatabase: data/mycelo.db\nowner: { channel: chat, userId: boss }\ndefaultLocale: ${locale}\n`,
  )
  return config
}

describe('bun run mycelo form', () => {
  it('shows each setting with its label, help, type and default, in English', async () => {
    const shown = await runCli(['form', 'forecast'], botIn('en'))
    expect(shown.code, shown.stderr).toBe(0)
    expect(shown.stdout.trimEnd()).toBe(
      [
        'Settings forecast takes:',
        '  Default city (defaultCity) — text, default "Nice"',
        '      The city /forecast uses when none is named',
        '  Service key (apiKey) — text, required, secret',
        '      The key the weather service gave you',
        '  units — one of "metric", "imperial", required',
        '      Plain words, not a key',
      ].join('\n'),
    )
  }, 30_000)

  it('in French when the bot speaks French', async () => {
    const shown = await runCli(['form', 'forecast'], botIn('fr'))
    expect(shown.code, shown.stderr).toBe(0)
    expect(shown.stdout.trimEnd()).toBe(
      [
        'Réglages que forecast accepte :',
        '  Ville par défaut (defaultCity) — texte, par défaut "Nice"',
        '      La ville que /forecast prend quand aucune n’est nommée',
        '  Clé du service (apiKey) — texte, obligatoire, secret',
        '      La clé que le service météo vous a donnée',
        '  units — l’une des valeurs "metric", "imperial", obligatoire',
        '      Plain words, not a key',
      ].join('\n'),
    )
  }, 30_000)

  it('says why a spore has no form', async () => {
    const shown = await runCli(['form', 'nowhere'], botIn('en'))
    expect(shown.code).toBe(1)
    expect(shown.stderr + shown.stdout).toContain('nowhere has no settings form: ')
  }, 30_000)
})
