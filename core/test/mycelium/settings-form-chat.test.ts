// Chat's /admin.form through the real bus: each field's label and help from the spore's catalogue
// in the reader's language, its default shown, a field with a default not marked required.
import { afterAll, beforeAll, expect, it } from 'bun:test'
import { LABELLED_SPORE } from '../support/labelled-spore.ts'
import { type Bot, dmWith, probeHypha, shippedSpore, startBot } from './harness.ts'

const { 'spore.yaml': manifest, ...files } = LABELLED_SPORE
let bot: Bot
beforeAll(async () => {
  bot = await startBot({
    spores: {
      chat: probeHypha('chat'),
      admin: shippedSpore('admin'),
      forecast: { manifest: manifest!, files },
    },
  })
})
afterAll(() => bot.stop())

const ask = async (text: string) => {
  await bot.emit('chat', text)
  return bot.takeSent('chat', dmWith('boss')).join('\n')
}

it('labels the form in English, then in French once the reader chose it', async () => {
  const english = await ask('/admin.form forecast')
  expect(english).toContain('Settings forecast takes:')
  expect(english).toContain(
    'Default city (defaultCity) — text, default "Nice": The city /forecast uses when none is named',
  )
  expect(english).toContain(
    'Service key (apiKey) — text, required, secret: The key the weather service gave you',
  )
  expect(english).toContain('units — one of "metric", "imperial", required: Plain words, not a key')

  await ask('/lang fr')
  const french = await ask('/admin.form forecast')
  expect(french).toContain('Réglages que forecast accepte :')
  expect(french).toContain(
    'Ville par défaut (defaultCity) — texte, par défaut "Nice" : La ville que /forecast prend quand aucune n’est nommée',
  )
  expect(french).toContain(
    'Clé du service (apiKey) — texte, obligatoire, secret : La clé que le service météo vous a donnée',
  )
  expect(french).toContain(
    'units — l’une des valeurs "metric", "imperial", obligatoire : Plain words, not a key',
  )
}, 30_000)
