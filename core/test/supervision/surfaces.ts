// What every surface says of one channel in a running bot: /plugins and /health (the mycelium
// functions chat and the agent call), the report, the HTTP API, and the command line beside it.
import { join } from 'node:path'
import { healthRead } from '../../mycelium/health.ts'
import { pluginsRead } from '../../mycelium/plugins.ts'
import { runCli } from '../boot/process.ts'
import { type Signed, tokenOf, type WebBot } from '../http/web.ts'

export interface SurfaceReadings {
  readonly plugins: { state: string; reason: string | undefined }
  readonly health: { state: string; detail: string | undefined }
  readonly report: { state: string; reason: string | undefined }
  readonly api: { state: string; reason: string | undefined }
  /** The command line's status line for the channel, as printed. */
  readonly cli: string
}

/**
 * The state part of a reason, without the figures that move while the surfaces are read one after
 * the other (the attempt under way, the seconds left) nor the last error, which a retry renews.
 */
export const steady = (text: string | undefined) =>
  (text ?? '')
    .split(': ')[0]!
    .replace(/next in \d+ s/g, 'next in # s')
    .replace(/attempt \d+/g, 'attempt #')

export class Surfaces {
  #session: Signed | undefined

  constructor(private readonly bot: WebBot) {}

  async of(name: string): Promise<SurfaceReadings> {
    const { runtime } = this.bot.core.assembly
    const listed = pluginsRead(runtime)
      .listPlugins()
      .find((plugin) => plugin.name === name)
    const health = (await healthRead(runtime).health()).find((answer) => answer.name === name)
    const line = this.bot.core.report().find((entry) => entry.name === name)
    this.#session ??= await this.bot.client.signIn(tokenOf(this.bot.loginLink))
    const answer = await this.bot.client.send('/api/v1/spores', { session: this.#session })
    const spores = answer.body.spores as { name: string; state: string; reason?: string }[]
    const api = spores.find((entry) => entry.name === name)
    const printed = await runCli(['status'], join(this.bot.core.folder, 'mycelo.yaml'))
    const cli = printed.stdout.split('\n').find((text) => text.trim().startsWith(`${name} `)) ?? ''
    return {
      plugins: { state: listed?.state ?? 'absent', reason: listed?.reason },
      health: { state: health?.state ?? 'absent', detail: health?.detail },
      report: { state: line?.state ?? 'absent', reason: line?.reason },
      api: { state: api?.state ?? 'absent', reason: api?.reason },
      cli: cli.trim(),
    }
  }
}

/** Every surface calls it down with the same words: never live. */
export function sameDownEverywhere(readings: SurfaceReadings, expected: RegExp): string {
  const reason = steady(readings.plugins.reason)
  const problems: string[] = []
  if (readings.plugins.state === 'live') problems.push('/plugins says live')
  if (!expected.test(readings.plugins.reason ?? ''))
    problems.push(`/plugins says "${readings.plugins.reason}"`)
  if (readings.health.state !== 'unreachable' || steady(readings.health.detail) !== reason)
    problems.push(`/health says ${readings.health.state} "${readings.health.detail}"`)
  if (readings.report.state === 'live' || steady(readings.report.reason) !== reason)
    problems.push(`the report says ${readings.report.state} "${readings.report.reason}"`)
  if (readings.api.state === 'live' || steady(readings.api.reason) !== reason)
    problems.push(`the API says ${readings.api.state} "${readings.api.reason}"`)
  if (!steady(readings.cli).endsWith(reason) || /\blive\b/.test(readings.cli.split(/\s+/)[2] ?? ''))
    problems.push(`the command line says "${readings.cli}"`)
  return problems.join('; ')
}

/** Every surface calls it live. */
export function liveEverywhere(readings: SurfaceReadings): string {
  const problems: string[] = []
  if (readings.plugins.state !== 'live') problems.push(`/plugins says ${readings.plugins.state}`)
  if (readings.health.state === 'unreachable') problems.push(`/health says ${readings.health.detail}`)
  if (readings.report.state !== 'live') problems.push(`the report says ${readings.report.state}`)
  if (readings.api.state !== 'live') problems.push(`the API says ${readings.api.state}`)
  if (readings.cli.split(/\s+/)[2] !== 'live') problems.push(`the command line says "${readings.cli}"`)
  return problems.join('; ')
}
