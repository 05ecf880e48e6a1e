import type { HyphaModule } from '@mycelo/septum'
import { type ConsoleConfig, configSchema } from './config.ts'
import { createConsoleHypha } from './hypha.ts'

export type { ConsoleConfig } from './config.ts'
export { CONSOLE_CHANNEL, type ConsoleHypha, type ConsoleStreams, createConsoleHypha } from './hypha.ts'

export default {
  configSchema,
  create: () =>
    createConsoleHypha({
      input: process.stdin,
      output: process.stdout,
      inputIsTerminal: process.stdin.isTTY === true,
    }),
} satisfies HyphaModule<ConsoleConfig>
