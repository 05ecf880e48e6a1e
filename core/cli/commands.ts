import { COMMON_DOMAIN, type Outcome, readSettingText, settingProperty } from '@mycelo/septum'
import { pluginsConfigure } from '../mycelium/configure.ts'
import { pluginsToggle } from '../mycelium/plugins.ts'
import { restrictionOutcomes } from '../mycelium/restrictions.ts'
import { rolesAssign, rolesRead } from '../mycelium/roles.ts'
import { principalIdOf } from '../store/index.ts'
import { AGENT_KEY_RUNS } from './agent-keys.ts'
import type { CliRuntime } from './runtime.ts'
import { SOURCE_RUNS } from './sources.ts'

/** What a command printed and how it ended: 0 done, 1 refused. */
export interface Answer {
  readonly code: 0 | 1
  readonly text: string
}

type Run = (cli: CliRuntime, args: readonly string[]) => Promise<Answer>

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
      const refusal = { domain: COMMON_DOMAIN, key: problem, params }
      return { code: 1, text: cli.runtime.translator.render(refusal, cli.config.defaultLocale) }
    }
    const done = await configure.setSetting(plugin!, key!, reading.value)
    return outcome(cli, done, 'cli.set', { plugin, key })
  },
  unset: async (cli, [plugin, key]) =>
    outcome(cli, await pluginsConfigure(cli.runtime, cli.plugins).unsetSetting(plugin!, key!), 'cli.unset', {
      plugin,
      key,
    }),
  async roles(cli, [who]) {
    const read = rolesRead(cli.runtime)
    if (who !== undefined) {
      const principal = principalOf(cli, who)
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
    const principal = principalOf(cli, who!)
    const done = await rolesAssign(cli.runtime).assignRole(principal, role!)
    return outcome(cli, done, 'cli.granted', { principal, role })
  },
  async revoke(cli, [who, role]) {
    const principal = principalOf(cli, who!)
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
}

/** A principal id, or `channel:userId` for a person known on a channel (what an operator knows). */
function principalOf(cli: CliRuntime, word: string): string {
  const colon = word.indexOf(':')
  if (colon <= 0) return word
  const identity = { channel: word.slice(0, colon), externalId: word.slice(colon + 1) }
  return principalIdOf(cli.runtime.store, identity) ?? word
}

function outcome(cli: CliRuntime, result: Outcome, key: string, params: Record<string, unknown>): Answer {
  if (result.ok) return ok(cli, key, params)
  return { code: 1, text: cli.runtime.translator.render(result.refusal, cli.config.defaultLocale) }
}

function ok(cli: CliRuntime, key: string, params: Record<string, unknown>): Answer {
  return { code: 0, text: say(cli, key, params) }
}

function say(cli: CliRuntime, key: string, params: Record<string, unknown> = {}): string {
  return cli.runtime.translator.render({ domain: 'core', key, params }, cli.config.defaultLocale)
}
