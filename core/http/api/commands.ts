// Every command the spores declare, and which of them a set of role patterns allows: the preview
// the page shows beside a role, by the same pattern match the message path authorises with.

import { guardOf, patternsAllow } from '../../identity/patterns.ts'
import { operatorGuard } from '../../mycelium/guards.ts'
import { type ApiDeps, type ApiRoute, route } from './route.ts'

const PATTERNS_MAX = 200

export function commandRoutes({ runtime }: ApiDeps): ApiRoute[] {
  return [
    route({
      method: 'get',
      path: '/commands',
      summary: 'Every declared command; with ?patterns=a,b each says whether those role patterns allow it',
      guard: operatorGuard('declaredCommands'),
      handle({ c }) {
        const asked = c.req.query('patterns')
        const patterns = new Set(
          (asked ?? '')
            .split(',')
            .map((pattern) => pattern.trim())
            .filter((pattern) => pattern !== '')
            .slice(0, PATTERNS_MAX),
        )
        const commands = runtime.germination.spores.flatMap((spore) => {
          const manifest = spore.manifest
          const declared = manifest && 'commands' in manifest ? (manifest.commands ?? []) : []
          return declared.map((command) => ({
            plugin: spore.name,
            name: command.name,
            qualified: `${spore.name}.${command.name}`,
            ...(asked === undefined
              ? {}
              : { allowed: patternsAllow(patterns, guardOf(spore.name, command.name)) }),
          }))
        })
        return c.json({ commands })
      },
    }),
  ]
}
