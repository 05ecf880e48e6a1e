// A spore whose settings a person can read: each field labelled through `.describe()` by a key of
// its own catalogue (en and fr), one described in plain words, one with a default, one a secret.
// The chat, command-line and page tests of the settings form share it.
export const LABELLED_SPORE: Readonly<Record<string, string>> = {
  'spore.yaml': `kind: enzyme
name: forecast
septum: "^1.0"
description: command.forecast
commands:
  - { name: forecast, description: command.forecast, respond: today }
`,
  'src/index.ts': `import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'

export default {
  configSchema: defineConfig(
    z.object({
      defaultCity: z.string().min(1).default('Nice').describe('settings.defaultCity'),
      apiKey: z.string().min(1).describe('settings.apiKey'),
      units: z.enum(['metric', 'imperial']).describe('Plain words, not a key'),
    }),
    { secrets: ['apiKey'] },
  ),
  create: () => ({ handlers: {} }),
}
`,
  'translations/en.yaml': `command:
  forecast: Today's weather
today: Sunny
settings:
  defaultCity:
    label: Default city
    help: The city /forecast uses when none is named
  apiKey:
    label: Service key
    help: The key the weather service gave you
`,
  'translations/fr.yaml': `command:
  forecast: La météo du jour
today: Ensoleillé
settings:
  defaultCity:
    label: Ville par défaut
    help: La ville que /forecast prend quand aucune n’est nommée
  apiKey:
    label: Clé du service
    help: La clé que le service météo vous a donnée
`,
}
