import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'

const settings = z.strictObject({
  interactive: z
    .enum(['auto', 'always', 'never'])
    .default('auto')
    .describe('Read standard input: auto when it is a terminal, always (e.g. a pipe), or never'),
  userId: z
    .string()
    .min(1)
    .default('owner')
    .describe('Who types at the terminal; the default is the owner the core configures out of the box'),
  displayName: z.string().min(1).optional().describe('The name the typist is shown as'),
})

export type ConsoleConfig = z.output<typeof settings>

export const configSchema = defineConfig(settings)
