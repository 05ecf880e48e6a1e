// The one implementation of connecting a channel: the connector's check, then the settings stored
// and the spore enabled through the same mycelium functions chat's /set and /enable use, so every
// rule (secrets, the schema, the role ceiling, the audit) holds on every surface.
import type { OutcomeOf } from '@mycelo/septum'
import { pluginsConfigure } from '../mycelium/configure.ts'
import { refused } from '../mycelium/outcome.ts'
import { pluginsToggle } from '../mycelium/plugins.ts'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import type { PluginStore } from '../store/index.ts'
import { CONNECT_DEADLINE_MS, CONNECTORS, type Connected } from './connector.ts'

export interface ConnectRequest {
  readonly channel: string
  readonly secret?: string
  readonly args?: readonly string[]
  readonly deadlineMs?: number
}

export async function connectChannel(
  runtime: CoreRuntime,
  plugins: PluginStore,
  request: ConnectRequest,
): Promise<OutcomeOf<Connected>> {
  const connector = CONNECTORS[request.channel]
  if (connector === undefined)
    return refused('connect_unknown', {
      channel: request.channel,
      channels: Object.keys(CONNECTORS).join(', '),
    })
  const stored = Object.fromEntries(
    Object.entries(plugins.settingsWithFlags(connector.spore)).map(([key, setting]) => [key, setting.value]),
  )
  const checked = await connector.check(
    {
      stored,
      args: request.args ?? [],
      ...(request.secret === undefined ? {} : { secret: request.secret }),
    },
    { deadlineMs: request.deadlineMs ?? CONNECT_DEADLINE_MS },
  )
  if (!checked.ok) return checked
  const configure = pluginsConfigure(runtime, plugins)
  for (const [key, value] of Object.entries(checked.value.settings)) {
    const set = await configure.setSetting(connector.spore, key, value)
    if (!set.ok) return set
  }
  const enabled = await pluginsToggle(runtime, plugins).enable(connector.spore)
  if (!enabled.ok) return enabled
  return checked
}
