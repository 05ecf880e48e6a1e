import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { Subprocess } from 'bun'

/** The repository root, where `bun core/boot/main.ts` runs from. */
export const ROOT = join(import.meta.dir, '..', '..', '..')

/** Writes a spore folder: spore.yaml plus any other files, by path relative to the folder. */
export function writeSpore(folder: string, name: string, files: Record<string, string>): string {
  const dir = join(folder, name)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  return dir
}

export interface Finished {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

const environment = (config: string, extra: Record<string, string> = {}) => ({
  ...process.env,
  MYCELO_CONFIG: config,
  MYCELO_LOG_LEVEL: 'info',
  ...extra,
})

/** Runs the boot to completion (e.g. `--check`) and collects what it printed. */
export function runBoot(args: readonly string[], config: string): Promise<Finished> {
  return runToEnd(['core/boot/main.ts', ...args], config)
}

/** Runs the command-line companion, `bun run mycelo …`, and collects what it printed. */
export function runCli(args: readonly string[], config: string): Promise<Finished> {
  return runToEnd(['core/cli/main.ts', ...args], config)
}

function runToEnd(args: readonly string[], config: string): Promise<Finished> {
  return runBun(args, environment(config))
}

/**
 * Runs `bun <args>` to completion, at the repository's root unless `cwd` says where, with `typed`
 * on its standard input when given, and collects what it printed.
 */
export function runBun(
  args: readonly string[],
  env: Record<string, string | undefined>,
  options: { readonly cwd?: string; readonly typed?: string } = {},
): Promise<Finished> {
  return runProgram(['bun', ...args], env, options)
}

/** Runs any program (an executable `bun run build` made, say) as runBun runs Bun. */
export async function runProgram(
  command: readonly string[],
  env: Record<string, string | undefined>,
  options: { readonly cwd?: string; readonly typed?: string } = {},
): Promise<Finished> {
  const child = Bun.spawn([...command], {
    cwd: options.cwd ?? ROOT,
    env,
    stdin: options.typed === undefined ? 'ignore' : new TextEncoder().encode(options.typed),
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

/** A boot left running: its output so far, and a way to wait for a line to appear. */
export interface Booted {
  readonly child: Subprocess<'pipe', 'pipe', 'pipe'>
  stdout(): string
  stderr(): string
  /** Resolves with the whole output once `text` appears; rejects if the process exits first. */
  waitFor(text: string): Promise<string>
  /** The exit code, once the process has exited and all its output has been read. */
  exited(): Promise<number>
}

/**
 * Starts the bot: Bun on the sources at the root, unless `command` (an executable), `cwd` and `env`
 * (instead of the test run's own) say otherwise.
 */
export function startBoot(
  config: string,
  extra: Record<string, string> = {},
  options: {
    readonly command?: readonly string[]
    readonly cwd?: string
    readonly env?: Record<string, string>
  } = {},
): Booted {
  const child = Bun.spawn([...(options.command ?? ['bun', 'core/boot/main.ts'])], {
    cwd: options.cwd ?? ROOT,
    env: options.env ?? environment(config, extra),
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
  })
  let stdout = ''
  let stderr = ''
  const drain = async (stream: ReadableStream<Uint8Array>, add: (text: string) => void) => {
    const decoder = new TextDecoder()
    for await (const chunk of stream) add(decoder.decode(chunk, { stream: true }))
  }
  const drained = Promise.all([
    drain(child.stdout, (text) => {
      stdout += text
    }),
    drain(child.stderr, (text) => {
      stderr += text
    }),
  ])
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited: async () => {
      const code = await child.exited
      await drained
      return code
    },
    async waitFor(text) {
      let exited = false
      void child.exited
        .then(() => drained)
        .then(() => {
          exited = true
        })
      while (!stdout.includes(text)) {
        if (exited)
          throw new Error(`exited (${child.exitCode}) before printing "${text}":\n${stdout}\n${stderr}`)
        await Bun.sleep(20)
      }
      return stdout
    },
  }
}
