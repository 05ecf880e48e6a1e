import type { GerminatedSpore } from '../germination/index.ts'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import { agentsManage } from './agents.ts'
import { commandsRead } from './commands.ts'
import { pluginsConfigure } from './configure.ts'
import { conversationsRead } from './conversations.ts'
import { healthRead } from './health.ts'
import { localeManage } from './locale.ts'
import { messagesBroadcast, messagesSend } from './messages.ts'
import { grantedScopes, mountSurface, type ScopeGroups } from './mount.ts'
import { pluginsRead, pluginsToggle } from './plugins.ts'
import { principalsManage, principalsRead } from './principals.ts'
import { restrictionsManage } from './restrictions.ts'
import { rolesAssign, rolesManage, rolesRead } from './roles.ts'
import { sourcesManage } from './sources.ts'
import { webLogin } from './web.ts'

/**
 * The core as a rhiza. Answers, for each spore, the surface of the scopes its manifest grants on
 * its mycelium requirement — built once per spore; a spore with no such requirement gets {}.
 */
export function createMycelium(runtime: CoreRuntime): (spore: GerminatedSpore) => object {
  const { plugins } = runtime
  const groups: ScopeGroups = {
    'plugins.read': pluginsRead(runtime),
    'health.read': healthRead(runtime),
    'messages.send': messagesSend(runtime),
    'principals.read': principalsRead(runtime),
    'principals.manage': principalsManage(runtime),
    'roles.read': rolesRead(runtime),
    'roles.assign': rolesAssign(runtime),
    'roles.manage': rolesManage(runtime),
    'plugins.toggle': pluginsToggle(runtime, plugins),
    'plugins.configure': pluginsConfigure(runtime, plugins),
    'messages.broadcast': messagesBroadcast(runtime),
    'conversations.read': conversationsRead(runtime),
    'restrictions.manage': restrictionsManage(runtime),
    'locale.manage': localeManage(runtime),
    'commands.read': commandsRead(runtime),
    'sources.manage': sourcesManage(runtime),
    'web.login': webLogin(runtime),
    'agents.manage': agentsManage(runtime),
  }
  // Keyed by the spore itself: one reloaded with fewer scopes gets a surface of its new grant.
  const surfaces = new WeakMap<object, object>()
  return (spore) => {
    let surface = surfaces.get(spore)
    if (surface === undefined) {
      surface = mountSurface(groups, grantedScopes(spore.manifest), spore.name)
      surfaces.set(spore, surface)
    }
    return surface
  }
}
