import {
  type ArgInfo,
  type CommandInfo,
  type CommandScope,
  type CommandsRead,
  isCodeCommand,
} from '@mycelo/septum'
import { patternsAllow } from '../identity/patterns.ts'
import type { Route } from '../rhizomorph/routes.ts'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import { patternsOf } from '../store/roles.ts'

/**
 * commands.read: what a principal's roles let them invoke, drawn from germination's route map,
 * rendered in the asked locale. Given `where`, the channel's capabilities and the context rules
 * apply as well, so the list matches what dispatch would allow there.
 */
export function commandsRead(runtime: CoreRuntime): CommandsRead {
  const { directory, store, config, translator } = runtime
  return {
    async available(asked, locale, where) {
      // The principal object spores hold, or its bare id as this core first took it; null is nobody.
      const id: unknown = typeof asked === 'string' ? asked : asked?.id
      const principal = typeof id === 'string' ? directory.load(id) : undefined
      if (!principal) return []
      return commandsAllowed(runtime, principal.patterns, locale, where)
    },
    async availableToNewcomers(locale, where) {
      // A newcomer holds the default role, as the directory gives it at first contact.
      return commandsAllowed(runtime, new Set(patternsOf(store, config.defaultRole)), locale, where)
    },
    async locales() {
      return translator.locales()
    },
  }
}

/** The commands `patterns` allow (where, if given, its channel and context rules too), rendered in `locale`. */
function commandsAllowed(
  runtime: CoreRuntime,
  patterns: ReadonlySet<string>,
  locale: string,
  where: CommandScope | undefined,
): CommandInfo[] {
  const { routes, hyphae, restrictions, translator } = runtime
  const capabilities = where ? hyphae.capabilitiesOf(where.channel) : undefined
  const allowedHere = (route: Route): boolean => {
    if (!patternsAllow(patterns, route)) return false
    if (capabilities && !(route.command.capabilities ?? []).every((c) => capabilities.has(c))) return false
    const kinds = where?.kind ? restrictions.allowedKinds(route.qualified) : undefined
    return kinds === undefined || where?.kind === undefined || kinds.includes(where.kind)
  }
  const render = (plugin: string, key: string) => translator.render({ domain: plugin, key }, locale)
  return routes.all
    .filter(allowedHere)
    .map((route): CommandInfo => {
      const { command, plugin } = route
      const declared = isCodeCommand(command) ? (command.args ?? []) : []
      const args = declared.map(
        (arg): ArgInfo => ({
          name: arg.name,
          description: render(plugin, arg.description),
          required: arg.required,
        }),
      )
      return {
        plugin,
        name: command.name,
        command: command.name,
        qualified: route.qualified,
        description: render(plugin, command.description),
        ...(args.length > 0 ? { args } : {}),
        ...(command.capabilities?.length ? { capabilities: command.capabilities } : {}),
      }
    })
    .sort((a, b) => (a.qualified < b.qualified ? -1 : a.qualified > b.qualified ? 1 : 0))
}
