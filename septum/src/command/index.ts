export { bindArgs, type ParsedCommand, parseCommand, splitWords, type Word } from './parse.ts'
export { type Guarded, guardOf, patternsAllow } from './patterns.ts'
