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

const NOT_FOUND: RouteLookup = { found: false, choices: [] }

/**
 * Every command of every enabled enzyme that germinated, drawn at germination and again whenever a
 * spore is swapped in or out: a command whose enzyme failed to start, or lost a rhiza it needs, is
 * still listed, and dispatch answers that it is unavailable.
 */
export class RouteMap {
  all: readonly Route[] = []
  /** Every name's answer, drawn with the map: a lookup allocates nothing. */
  #qualified = new Map<string, RouteLookup>()
  #bare = new Map<string, RouteLookup>()
  readonly #germination: Germination

  constructor(germination: Germination) {
    this.#germination = germination
    this.refresh()
  }

  /** Draws the map again from the spores as they now stand; readers see the old or the new map whole. */
  refresh(): void {
    const germination = this.#germination
    const qualified = new Map<string, RouteLookup>()
    const byBareName = new Map<string, Route[]>()
    const routes: Route[] = []
    for (const spore of germination.spores) {
      // Created means it passed germination: one whose start failed since still answers unavailable.
      if (spore.kind !== 'enzyme' || spore.state === 'disabled' || !spore.manifest) continue
      if (spore.instance === undefined) continue
      for (const command of (spore.manifest as EnzymeManifest).commands) {
        const argNames = (isCodeCommand(command) ? (command.args ?? []) : []).map((arg) => arg.name)
        routes.push({ plugin: spore.name, ...guardOf(spore.name, command.name), command, argNames, spore })
      }
    }
    routes.sort((a, b) => a.qualified.localeCompare(b.qualified))
    for (const route of routes) {
      qualified.set(route.qualified, { found: true, route })
      byBareName.set(route.command.name, [...(byBareName.get(route.command.name) ?? []), route])
    }
    const bare = new Map<string, RouteLookup>()
    for (const [name, choices] of byBareName) {
      bare.set(name, choices.length === 1 ? { found: true, route: choices[0]! } : { found: false, choices })
    }
    this.all = routes
    this.#qualified = qualified
    this.#bare = bare
  }

  /** `plugin.command` always resolves; a bare name resolves when exactly one enzyme declares it. */
  find(name: string): RouteLookup {
    return this.#qualified.get(name) ?? this.#bare.get(name) ?? NOT_FOUND
  }
}
