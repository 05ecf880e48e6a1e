// What the page's overview reads beside the report: the bot's version, how long it has run and
// how busy it is, and each spore's requirements (the graph the Spores screen draws, and what an
// installed spore asks for before anyone enables it).

import type { PluginKind, PluginState } from '@mycelo/septum'
import { alternativesOf } from '@mycelo/septum'
import { guardOf } from '../../mycelium/guards.ts'
import { MYCELO_VERSION } from '../../operations/backup/version.ts'
import { type ApiDeps, type ApiRoute, route } from './route.ts'

/** The message counter the bus feeds (core/http/metrics.ts). */
export interface MessageCount {
  readonly handledCount: number
}

/** How far back the rate looks, and how often a sample is kept. */
const WINDOW_MS = 60_000
const SAMPLE_MS = 5_000

export interface SporeNeeds {
  readonly name: string
  readonly kind: PluginKind | undefined
  readonly state: PluginState
  readonly description?: string
  /** The rhizas it was resolved to need; `mandatory` ones it cannot live without. */
  readonly edges: readonly string[]
  readonly mandatory: readonly string[]
  /** What its manifest asks for, alternatives and scopes included; empty when the manifest was refused. */
  readonly requires: readonly {
    readonly rhizas: readonly string[]
    readonly scopes: readonly string[]
    readonly optional: boolean
  }[]
  readonly commands: readonly string[]
}

export function statusRoutes({ runtime, messages }: ApiDeps & { messages?: MessageCount }): ApiRoute[] {
  const startedAt = Date.now() - Math.round(process.uptime() * 1000)
  const samples: { at: number; count: number }[] = []
  /**
   * Messages in the last minute: all of them while the bot is younger than that, else measured
   * from the oldest sample kept (requests keep one every few seconds), else the average since start.
   */
  const perMinute = (now: number): number | null => {
    if (messages === undefined) return null
    const count = messages.handledCount
    const last = samples.at(-1)
    if (last === undefined || now - last.at >= SAMPLE_MS) samples.push({ at: now, count })
    while (samples.length > 1 && now - samples[0]!.at > WINDOW_MS) samples.shift()
    if (now - startedAt <= WINDOW_MS) return count
    const oldest = samples[0]!
    const since = now - oldest.at >= SAMPLE_MS ? oldest : { at: startedAt, count: 0 }
    return Math.round(((count - since.count) / ((now - since.at) / WINDOW_MS)) * 10) / 10
  }
  return [
    route({
      method: 'get',
      path: '/status',
      summary: 'The bot at a glance: version, start time, uptime and messages per minute',
      guard: guardOf('plugins.read', 'listPlugins'),
      handle({ c }) {
        const now = Date.now()
        return c.json({
          version: MYCELO_VERSION,
          startedAt: new Date(startedAt).toISOString(),
          uptimeSeconds: Math.round((now - startedAt) / 1000),
          messagesPerMinute: perMinute(now),
          messagesHandled: messages?.handledCount ?? null,
        })
      },
    }),
    route({
      method: 'get',
      path: '/spores-needs',
      summary: 'What each spore requires: rhizas (with mycelium scopes) and its commands',
      guard: guardOf('plugins.read', 'listPlugins'),
      handle: ({ c }) =>
        c.json({
          spores: runtime.germination.spores.map((spore): SporeNeeds => {
            const manifest = spore.manifest
            const description = manifest?.description
            return {
              name: spore.name,
              kind: spore.kind,
              state: spore.state,
              ...(description ? { description } : {}),
              edges: spore.edges,
              mandatory: spore.mandatory,
              requires: (manifest?.requires ?? []).map((requirement) => {
                const alternatives = alternativesOf(requirement)
                return {
                  rhizas: alternatives.map((alternative) => alternative.rhiza),
                  scopes: [...new Set(alternatives.flatMap((alternative) => alternative.scopes ?? []))],
                  optional: requirement.optional === true,
                }
              }),
              commands: (manifest && 'commands' in manifest ? (manifest.commands ?? []) : []).map(
                (command) => command.name,
              ),
            }
          }),
        }),
    }),
  ]
}
