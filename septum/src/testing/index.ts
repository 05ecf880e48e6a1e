/**
 * A test bot for a spore's own behaviour tests: `await bot.say('/forecast Nice')` answers the
 * replies. No Bun-only import, so it runs under Node's test runner as well as Bun's.
 */
export { type TestBot, type TestBotOptions, testBot } from './bot.ts'
export { RefusedCommandError, type SayOptions } from './commands.ts'
export type { LoggedLine, Pushed } from './contexts.ts'
export { DormantSporeError, type SporeUnderTest } from './germinate.ts'
export { readSporeFiles, type SporeFiles, sporeFolder } from './spore-files.ts'
