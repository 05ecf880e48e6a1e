export * from './bot.ts'
export * from './guards.ts'
export * from './server.ts'
