import type { RouteDeclaration } from './route.ts'
import { type ChannelCapability, COMMON_DOMAIN, type MyceliumScope, type PluginKind } from './vocabulary.ts'

/** One rhiza a spore depends on. `scopes` is only allowed when `rhiza` is `mycelium`. */
export interface RhizaRequirement {
  readonly rhiza: string
  readonly scopes?: readonly MyceliumScope[]
  readonly optional?: boolean
}

/** Two or more rhizas that would each do; collapses to the first one installed. */
export interface AnyOfRequirement {
  readonly any_of: readonly RhizaRequirement[]
  readonly optional?: boolean
}

export type Requirement = RhizaRequirement | AnyOfRequirement

export interface ArgDeclaration {
  readonly name: string
  /** A catalogue key in the spore's own domain. */
  readonly description: string
  /** A help-surface hint, never a gate: the handler gets an empty bag when too few words arrive. */
  readonly required: boolean
}

interface CommandCommon {
  readonly name: string
  /** A catalogue key in the spore's own domain. */
  readonly description: string
  readonly capabilities?: readonly ChannelCapability[]
}

/** A command answered with a resolved catalogue key, with no module code. */
export interface RespondCommand extends CommandCommon {
  readonly respond: string
}

/** A command dispatched to the handler the module exports under `code`. */
export interface CodeCommand extends CommandCommon {
  readonly code: string
  readonly args?: readonly ArgDeclaration[]
}

export type CommandDeclaration = RespondCommand | CodeCommand

interface ManifestCommon {
  readonly name: string
  readonly septum: string
  readonly description?: string
  readonly externals?: readonly string[]
  readonly requires?: readonly Requirement[]
  /** septum 1.1: HTTP routes mounted under `/spores/<name>`. */
  readonly routes?: readonly RouteDeclaration[]
}

export interface HyphaManifest extends ManifestCommon {
  readonly kind: 'hypha'
  readonly capabilities: readonly ChannelCapability[]
}

export interface RhizaManifest extends ManifestCommon {
  readonly kind: 'rhiza'
}

export interface EnzymeManifest extends ManifestCommon {
  readonly kind: 'enzyme'
  readonly commands: readonly CommandDeclaration[]
}

export interface InhibitorManifest extends ManifestCommon {
  readonly kind: 'inhibitor'
  /** Whether an error from this inhibitor refuses all traffic. Refusals are final either way. */
  readonly enforcing: boolean
}

export type Manifest = HyphaManifest | RhizaManifest | EnzymeManifest | InhibitorManifest

export type ManifestOf<K extends PluginKind> = Extract<Manifest, { kind: K }>

export function isAnyOf(requirement: Requirement): requirement is AnyOfRequirement {
  return 'any_of' in requirement
}

/** A requirement's rhizas: the one it names, or each of its any_of alternatives. */
export function alternativesOf(requirement: Requirement): readonly RhizaRequirement[] {
  return isAnyOf(requirement) ? requirement.any_of : [requirement]
}

/**
 * The catalogue domains a spore's ctx.t() may read: its own, `common`, and every rhiza its
 * manifest requires (any_of alternatives included). Any other domain, the core's among them, throws.
 */
export function readableDomains(name: string, requires: readonly Requirement[] = []): ReadonlySet<string> {
  const domains = new Set([name, COMMON_DOMAIN])
  for (const requirement of requires)
    for (const alternative of alternativesOf(requirement)) domains.add(alternative.rhiza)
  return domains
}

export function isCodeCommand(command: CommandDeclaration): command is CodeCommand {
  return 'code' in command
}
