// One guard table per mycelium method, read by every surface: the API guards each route with the
// command the table gives the method it calls, the page is told from the table what a person may
// do, and an agent's grants are worked out from it, so the three agree for any person.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { MYCELIUM_SCOPES, SCOPE_METHODS } from '@mycelo/septum'
import { parse } from 'yaml'
import { scopeVerbs } from '../../agent/bot-scopes.ts'
import { grantsOf } from '../../agent/mcp/guards.ts'
import { ApiEvents, apiRouteTable } from '../../http/api/index.ts'
import type { ApiRoute } from '../../http/api/route.ts'
import { loginTickets } from '../../http/tickets.ts'
import { uncoveredPatterns } from '../../identity/patterns.ts'
import {
  commandsOf,
  GUARDED_COMMANDS,
  METHOD_GUARDS,
  type MethodGuard,
  type MethodOf,
  OPERATOR_GUARDS,
} from '../../mycelium/guards.ts'
import { testAudit, testSessionPort } from './api/session.ts'
import { type Signed, startWebBot, tokenOf, type WebBot } from './web.ts'

const here = import.meta.dir
const API_FOLDER = join(here, '../../http/api')
const PAGE_FOLDER = join(here, '../../http/page')

let bot: WebBot
let table: ApiRoute[]
let owner: Signed
let moderator: Signed
let moderatorId: string

beforeAll(async () => {
  bot = await startWebBot({
    // Some of plugins.toggle (not all), plugins.read and health whole, restrictions' reads only.
    roles: { moderator: ['admin.plugins', 'admin.health', 'admin.enable', 'admin.rules', 'admin.targets'] },
    grants: { mod: ['moderator'] },
  })
  await bot.core.say('hello', { from: 'mod' })
  const runtime = bot.core.assembly.runtime
  const { store, directory } = runtime
  table = apiRouteTable({
    runtime,
    events: new ApiEvents(runtime),
    audit: testAudit([]),
    session: testSessionPort(runtime),
  })
  owner = await bot.client.signIn(tokenOf(bot.loginLink))
  moderatorId = directory.resolve({ channel: 'chat', externalId: 'mod' }).id
  moderator = await bot.client.signIn(
    loginTickets(store).issue({ principalId: moderatorId, form: 'link', now: bot.clock.now }).secret,
  )
})

afterAll(() => bot?.stop())

/** Every name the table gives a guard: `scope.method`, `scope.method:use`, `operator.action`. */
function tableNames(): Map<string, string | undefined> {
  const names = new Map<string, string | undefined>()
  for (const scope of MYCELIUM_SCOPES) {
    for (const [method, entry] of Object.entries(
      METHOD_GUARDS[scope] as Readonly<Record<string, MethodGuard>>,
    )) {
      if (entry === null || typeof entry === 'string') names.set(`${scope}.${method}`, entry ?? undefined)
      else {
        names.set(`${scope}.${method}`, entry.command)
        for (const [use, command] of Object.entries(entry.uses))
          names.set(`${scope}.${method}:${use}`, command)
      }
    }
  }
  for (const [action, command] of Object.entries(OPERATOR_GUARDS)) names.set(`operator.${action}`, command)
  return names
}

describe('the guard table', () => {
  it('names a guard for every method septum lists, and only those', () => {
    for (const scope of MYCELIUM_SCOPES) {
      expect(Object.keys(METHOD_GUARDS[scope]).sort()).toEqual([...SCOPE_METHODS[scope]].sort())
    }
  })

  it("names only commands the admin spore declares in chat, beside the operator's own patterns", () => {
    const manifest = parse(readFileSync(join(here, '../../../spores/admin/spore.yaml'), 'utf8')) as {
      commands: { name: string }[]
    }
    const declared = new Set(manifest.commands.map((command) => `admin.${command.name}`))
    const operator = new Set<string>(Object.values(OPERATOR_GUARDS))
    for (const command of GUARDED_COMMANDS) {
      expect({ command, known: declared.has(command) || operator.has(command) }).toEqual({
        command,
        known: true,
      })
    }
  })
})

describe('(a) the API', () => {
  it("guards every route with the command the table gives the method it calls, never one of the route's own", () => {
    const names = tableNames()
    const guarded = table.filter((entry) => entry.command !== undefined)
    expect(guarded.length).toBeGreaterThan(50)
    for (const entry of table) {
      const where = `${entry.method} ${entry.path}`
      if (entry.guard === undefined) {
        expect({ where, command: entry.command }).toEqual({ where, command: undefined })
        continue
      }
      expect({ where, from: names.has(entry.guard.guards) }).toEqual({ where, from: true })
      expect({ where, command: entry.command }).toEqual({ where, command: names.get(entry.guard.guards) })
    }
  })

  it('writes no command pattern in a route module: each reads the table', () => {
    for (const file of readdirSync(API_FOLDER).filter((name) => name.endsWith('.ts'))) {
      const source = readFileSync(join(API_FOLDER, file), 'utf8')
      expect({ file, literal: /\bcommand:\s*['"`]/.test(source) }).toEqual({ file, literal: false })
      expect({ file, pattern: /['"](admin|core)\.[a-z-]+['"]/.test(source) }).toEqual({
        file,
        pattern: false,
      })
    }
  })

  it('refuses a route to a person without its command, and runs it for one with it', async () => {
    const enable = table.find((entry) => entry.path === '/spores/:name/enable')!
    expect(enable.command).toBe(commandsOf('plugins.toggle', 'enable')[0]!)
    const disable = table.find((entry) => entry.path === '/spores/:name/disable')!
    // The moderator holds enable's command, not disable's: the API asks the table, as chat does.
    const disabling = await bot.client.send('/api/v1/spores/nothing-here/disable', {
      method: 'POST',
      session: moderator,
    })
    expect({ guard: disable.command, status: disabling.status }).toEqual({
      guard: 'admin.disable',
      status: 403,
    })
    const enabling = await bot.client.send('/api/v1/spores/nothing-here/enable', {
      method: 'POST',
      session: moderator,
    })
    expect(enabling.status).toBe(404)
  })
})

describe('(b) for one person, the page and the agent agree with the table', () => {
  const held = () => bot.core.assembly.runtime.directory.load(moderatorId)!.patterns
  const holds = (commands: readonly string[]) => uncoveredPatterns(held(), commands).length === 0

  it("tells the page exactly the table's commands the person holds", async () => {
    const answer = await bot.client.send('/api/v1/session', { session: moderator })
    const expected = GUARDED_COMMANDS.filter((command) => holds([command]))
    expect(answer.body.allowed).toEqual(expected)
    expect(expected).toEqual([
      'admin.enable',
      'admin.health',
      'admin.plugins',
      'admin.rules',
      'admin.targets',
    ])
    const everything = await bot.client.send('/api/v1/session', { session: owner })
    expect(everything.body.allowed).toEqual([...GUARDED_COMMANDS])
  })

  it('grants the agent each scope by the commands of its methods: all of them write, its reads read', () => {
    const grants = grantsOf(bot.core.assembly.runtime, moderatorId)
    const verbs = scopeVerbs(bot.core.assembly.runtime)
    for (const scope of MYCELIUM_SCOPES) {
      const methods = SCOPE_METHODS[scope] as readonly MethodOf<typeof scope>[]
      const all = methods.flatMap((method) => commandsOf(scope, method))
      const reads = methods
        .filter((method) => verbs[scope][method]?.access === 'read')
        .flatMap((method) => commandsOf(scope, method))
      const expected =
        scope === 'web.login'
          ? 'none'
          : holds(all)
            ? 'write'
            : reads.length > 0 && holds(reads)
              ? 'read'
              : 'none'
      expect({ scope, grant: grants[scope] }).toEqual({ scope, grant: expected })
    }
    expect(grants).toMatchObject({
      'plugins.read': 'write',
      'health.read': 'write',
      'plugins.toggle': 'none',
      'restrictions.manage': 'read',
      'roles.read': 'none',
    })
  })

  it('never lets the agent call a method whose command the person lacks', () => {
    const grants = grantsOf(bot.core.assembly.runtime, moderatorId)
    const verbs = scopeVerbs(bot.core.assembly.runtime)
    for (const scope of MYCELIUM_SCOPES) {
      for (const method of SCOPE_METHODS[scope] as readonly MethodOf<typeof scope>[]) {
        const grant = grants[scope]
        const callable = grant === 'write' || (grant === 'read' && verbs[scope][method]?.access === 'read')
        if (callable)
          expect({ scope, method, holds: holds(commandsOf(scope, method)) }).toEqual({
            scope,
            method,
            holds: true,
          })
      }
    }
  })

  it('shows page screens and actions only by commands the table names', () => {
    const sources = readdirSync(PAGE_FOLDER, { recursive: true, encoding: 'utf8' })
      .filter((name) => /\.(ts|tsx)$/.test(name))
      .map((name) => readFileSync(join(PAGE_FOLDER, name), 'utf8'))
    const asked = sources.flatMap((source) => [
      ...[...source.matchAll(/\bcan\('([^']+)'\)/g)].map((match) => match[1]!),
      ...[...source.matchAll(/\bany\(([^)]*)\)/g)].flatMap((match) =>
        [...match[1]!.matchAll(/'([^']+)'/g)].map((quoted) => quoted[1]!),
      ),
      ...[...source.matchAll(/allowed\.includes\('([^']+)'\)/g)].map((match) => match[1]!),
    ])
    expect(asked.length).toBeGreaterThan(10)
    for (const command of new Set(asked)) {
      expect({ command, inTable: GUARDED_COMMANDS.includes(command) }).toEqual({ command, inTable: true })
    }
  })
})
