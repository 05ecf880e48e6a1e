import { ROOT } from '../boot/process.ts'

export { ROOT }

/** The five spores the project ships, as they are published. */
export const FIRST_PARTY = ['admin', 'console', 'discord', 'help', 'signal'] as const

export interface ToolRun {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** Runs `bun run sporangium …` as an author would, in English, and collects what it printed. */
export async function runTool(args: readonly string[], env: Record<string, string> = {}): Promise<ToolRun> {
  const child = Bun.spawn(['bun', '--no-install', 'sporangia/tool/main.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, LC_ALL: '', LC_MESSAGES: '', LANG: 'C', ...env },
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ])
  return { code, stdout, stderr }
}
