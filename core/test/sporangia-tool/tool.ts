import { type Finished, ROOT, runBun } from '../boot/process.ts'

export { ROOT }

/** The five spores the project ships, as they are published. */
export const FIRST_PARTY = ['admin', 'console', 'discord', 'help', 'signal'] as const

export type ToolRun = Finished

/** Runs `bun run sporangium …` as an author would, in English, and collects what it printed. */
export function runTool(args: readonly string[], env: Record<string, string> = {}): Promise<ToolRun> {
  const english = { LC_ALL: '', LC_MESSAGES: '', LANG: 'C' }
  return runBun(['--no-install', 'sporangia/tool/main.ts', ...args], { ...process.env, ...english, ...env })
}
