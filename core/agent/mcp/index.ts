export * from './bot.ts'
export * from './guards.ts'
export type { McpRefusal } from './refusals.ts'
export * from './server.ts'
