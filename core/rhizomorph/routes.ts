import { type CommandDeclaration, type EnzymeManifest, isCodeCommand } from '@mycelo/septum'
import type { GerminatedSpore, Germination } from '../germination/index.ts'
import { type Guarded, guardOf } from '../identity/patterns.ts'

/** One command of one enzyme. */
export interface Route extends Guarded {
  readonly plugin: string
  readonly qualified: string
  readonly command: CommandDeclaration
  /** The declared args' names in order, read once here rather than at every invocation. */
  readonly argNames: readonly string[]
  readonly spore: GerminatedSpore
}

export type RouteLookup =
  | { readonly found: true; readonly route: Route }
  | { readonly found: false; readonly choices: readonly Route[] }

/**
 * Every command of every enabled, usable enzyme, drawn at germination: a command whose enzyme
 * later fails to start is still listed, and dispatch answers that it is unavailable.
 */
export class RouteMap {
  readonly all: readonly Route[]
  readonly #qualified = new Map<string, Route>()
  readonly #bare = new Map<string, Route[]>()

  constructor(germination: Germination) {
    const routes: Route[] = []
    for (const spore of germination.spores) {
      if (spore.kind !== 'enzyme' || spore.state !== 'live' || !spore.manifest) continue
      for (const command of (spore.manifest as EnzymeManifest).commands) {
        const argNames = (isCodeCommand(command) ? (command.args ?? []) : []).map((arg) => arg.name)
        routes.push({ plugin: spore.name, ...guardOf(spore.name, command.name), command, argNames, spore })
      }
    }
    routes.sort((a, b) => a.qualified.localeCompare(b.qualified))
    this.all = routes
    for (const route of routes) {
      this.#qualified.set(route.qualified, route)
      this.#bare.set(route.command.name, [...(this.#bare.get(route.command.name) ?? []), route])
    }
  }

  /** `plugin.command` always resolves; a bare name resolves when exactly one enzyme declares it. */
  find(name: string): RouteLookup {
    const qualified = this.#qualified.get(name)
    if (qualified) return { found: true, route: qualified }
    const bare = this.#bare.get(name) ?? []
    if (bare.length === 1) return { found: true, route: bare[0]! }
    return { found: false, choices: bare }
  }
}
