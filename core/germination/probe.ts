import { fileURLToPath } from 'node:url'
import type { Logger, Manifest } from '@mycelo/septum'
import { COMPILED, EXECUTABLE_RUNS } from '../boot/shipped.ts'
import { faultText } from './fault.ts'

/** What the probe is asked: each spore's folder, manifest and stored settings. */
export interface ProbeRequest {
  readonly deadlineMs: number
  readonly spores: readonly {
    readonly name: string
    readonly dir: string
    readonly manifest: Manifest
    readonly settings: Record<string, unknown>
  }[]
}

/** Per spore: why its stored settings fail its schema, or null to decide it in the bot as usual. */
export type ProbeVerdicts = Record<string, string | null>

const PROBE_MAIN = fileURLToPath(new URL('./probe-main.ts', import.meta.url))

/** The probe's command: Bun on its module, or the executable `bun run build` made, told to run it. */
function probeCommand(): { cmd: string[]; env: Record<string, string | undefined> } {
  if (COMPILED) return { cmd: [process.execPath], env: { ...process.env, [EXECUTABLE_RUNS]: 'probe' } }
  return { cmd: [process.execPath, '--no-install', PROBE_MAIN], env: process.env }
}

/**
 * On a first start, every spore must be checked to decide whether it starts enabled; a spore that
 * fails its checks is recorded disabled, and its module (a channel library can weigh tens of MiB)
 * should not stay in the bot's memory. So the checks run first in a short-lived process, and only
 * the spores that pass are imported here, where they are checked again: the probe can only keep a
 * module out, never let one in. Answers undefined when the probe itself fails, and the caller
 * imports everything as it would without it.
 */
export async function probeFirstStart(
  request: ProbeRequest,
  logger: Logger,
): Promise<ProbeVerdicts | undefined> {
  if (request.spores.length === 0) return {}
  const { cmd, env } = probeCommand()
  const child = Bun.spawn(cmd, {
    env,
    stdin: new Blob([JSON.stringify(request)]),
    stdout: 'pipe',
    stderr: 'pipe',
  })
  // Each module has its own import deadline inside; this bounds the whole, with a second to spawn.
  const timer = setTimeout(() => child.kill('SIGKILL'), request.deadlineMs * request.spores.length + 1_000)
  try {
    const [stdout, stderr, code] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ])
    const verdicts = code === 0 ? parseVerdicts(stdout, request) : undefined
    if (verdicts === undefined) {
      logger.warn('first-start probe failed; checking every spore in process', {
        code,
        stderr: stderr.slice(0, 500),
      })
    }
    return verdicts
  } catch (error) {
    logger.warn('first-start probe failed; checking every spore in process', { error: faultText(error) })
    return undefined
  } finally {
    clearTimeout(timer)
  }
}

/** The last line, if it is a verdict for every spore asked about and nothing else. */
function parseVerdicts(stdout: string, request: ProbeRequest): ProbeVerdicts | undefined {
  try {
    const parsed = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as unknown
    if (typeof parsed !== 'object' || parsed === null) return undefined
    const verdicts = parsed as Record<string, unknown>
    const complete = request.spores.every(({ name }) => {
      const verdict = verdicts[name]
      return verdict === null || typeof verdict === 'string'
    })
    return complete ? (verdicts as ProbeVerdicts) : undefined
  } catch {
    return undefined
  }
}
