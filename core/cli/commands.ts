import { COMMON_DOMAIN, readSettingText, settingProperty } from '@mycelo/septum'
import { pluginsConfigure } from '../mycelium/configure.ts'
import { pluginsToggle } from '../mycelium/plugins.ts'
import { principalNamed } from '../mycelium/principals.ts'
import { restrictionOutcomes } from '../mycelium/restrictions.ts'
import { rolesAssign, rolesRead } from '../mycelium/roles.ts'
import { AGENT_KEY_RUNS } from './agent-keys.ts'
import { ok, outcome, type Run, refusal, say } from './answer.ts'
import { CONNECT_RUNS } from './connect.ts'
import { settingsForm } from './settings-form.ts'
import { SOURCE_RUNS } from './sources.ts'

/**
 * The commands that work on the database, each through the mycelium function chat uses, so the
 * companion checks, refuses and writes exactly as chat does (the caller runs them as the operator).
 */
export const RUNS: Readonly<Record<string, Run>> = {
  enable: async (cli, [plugin]) =>
    outcome(cli, await pluginsToggle(cli.runtime, cli.plugins).enable(plugin!), 'cli.enabled', { plugin }),
  disable: async (cli, [plugin]) =>
    outcome(cli, await pluginsToggle(cli.runtime, cli.plugins).disable(plugin!), 'cli.disabled', { plugin }),
  async set(cli, [plugin, key, ...words]) {
    // Read by the key's schema type, exactly as chat's /set reads it.
    const configure = pluginsConfigure(cli.runtime, cli.plugins)
    const text = words.join(' ')
    const reading = readSettingText(text, text, settingProperty(await configure.formSchema(plugin!), key!))
    if (!reading.ok) {
      const problem = reading.problem === 'tooLarge' ? 'setting.tooLarge' : 'setting.unreadable'
      const params = {
        plugin,
        key,
        ...(reading.problem === 'expected' ? { expected: reading.expected } : {}),
      }
      return refusal(cli, { domain: COMMON_DOMAIN, key: problem, params })
    }
    const done = await configure.setSetting(plugin!, key!, reading.value)
    return outcome(cli, done, 'cli.set', { plugin, key })
  },
  unset: async (cli, [plugin, key]) =>
    outcome(cli, await pluginsConfigure(cli.runtime, cli.plugins).unsetSetting(plugin!, key!), 'cli.unset', {
      plugin,
      key,
    }),
  form: (cli, [plugin]) => settingsForm(cli, plugin!),
  async roles(cli, [who]) {
    const read = rolesRead(cli.runtime)
    if (who !== undefined) {
      const principal = principalNamed(cli.runtime.store, who)
      const roles = await read.rolesOf(principal)
      return ok(cli, 'cli.rolesOf', { principal, roles: roles.join(', '), count: roles.length })
    }
    const lines = (await read.listRoles()).map((role) =>
      say(cli, 'cli.roleLine', {
        name: role.name,
        patterns: role.patterns.join(' '),
        builtin: role.builtin ? 'yes' : 'no',
      }),
    )
    return { code: 0, text: lines.length === 0 ? say(cli, 'cli.noRoles') : lines.join('\n') }
  },
  async grant(cli, [who, role]) {
    const principal = principalNamed(cli.runtime.store, who!)
    const done = await rolesAssign(cli.runtime).assignRole(principal, role!)
    return outcome(cli, done, 'cli.granted', { principal, role })
  },
  async revoke(cli, [who, role]) {
    const principal = principalNamed(cli.runtime.store, who!)
    const done = await rolesAssign(cli.runtime).revokeRole(principal, role!)
    return outcome(cli, done, 'cli.revoked', { principal, role })
  },
  async rules(cli, [verb, command]) {
    const manage = restrictionOutcomes(cli.runtime)
    if (verb === 'clear')
      return outcome(cli, await manage.clearContextRule(command!), 'cli.ruleCleared', { command })
    const lines = (await manage.listContextRules()).map((rule) =>
      say(cli, 'cli.ruleLine', { command: rule.command, where: rule.allowed.join(', ') }),
    )
    return { code: 0, text: lines.length === 0 ? say(cli, 'cli.noRules') : lines.join('\n') }
  },
  ...SOURCE_RUNS,
  ...AGENT_KEY_RUNS,
  ...CONNECT_RUNS,
}
