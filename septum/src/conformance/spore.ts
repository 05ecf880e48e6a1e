import type { IncomingMessage, ManifestOf, PluginKind } from '../contract/index.ts'
import { ManifestError, parseManifest } from '../manifest/index.ts'
import { septumIncompatibility } from '../range/index.ts'
import { SEPTUM_VERSION } from '../version.ts'
import { errorText, Failures, isRecord } from './failures.ts'
import type { SporeCheckOptions } from './options.ts'
import type { SeptumUse } from './septum-use.ts'

/** Runs one kit's checks; whatever escapes them becomes a failure, so the kit itself never rejects. */
export async function runChecks(
  body: (failures: Failures) => Promise<void>,
  use?: SeptumUse,
): Promise<string[]> {
  const failures = new Failures()
  try {
    await body(failures)
    use?.report(failures)
  } catch (error) {
    failures.add(`conformance kit: a check could not run: ${errorText(error)}`)
  }
  return [...failures.list]
}

/**
 * Validates the manifest as germination does. Answers the parsed manifest when the checks that
 * depend on it can go on: a manifest that does not parse, or is of another kind, stops them.
 */
export function checkManifest<K extends PluginKind>(
  kind: K,
  options: SporeCheckOptions,
  failures: Failures,
  use?: SeptumUse,
): ManifestOf<K> | undefined {
  let manifest: ReturnType<typeof parseManifest>
  try {
    manifest = parseManifest(options.manifest)
  } catch (error) {
    failures.add(
      error instanceof ManifestError
        ? manifestRefusal(error)
        : `manifest: could not be parsed: ${errorText(error)}`,
    )
    return undefined
  }
  if (manifest.kind !== kind) {
    failures.add(`manifest: kind is "${manifest.kind}", but ${kind}Checks checks a ${kind}`)
    return undefined
  }
  if (manifest.name !== options.name) {
    failures.add(`manifest: name is "${manifest.name}", expected "${options.name}"`)
  }
  const version = options.septumVersion ?? SEPTUM_VERSION
  try {
    const refusal = septumIncompatibility(manifest.septum, version)
    if (refusal !== undefined) {
      failures.add(`manifest: the bot would refuse this spore: ${refusal}`)
    }
  } catch (error) {
    failures.add(`manifest: septum range "${manifest.septum}" could not be checked: ${errorText(error)}`)
  }
  if (use !== undefined) use.manifest = manifest
  return manifest as ManifestOf<K>
}

function manifestRefusal(error: ManifestError): string {
  if (error.path === '') return `manifest: refused: ${error.message}`
  // The message leads with the path already; name the field once.
  const lead = `${error.path}: `
  const problem = error.message.startsWith(lead) ? error.message.slice(lead.length) : error.message
  return `manifest: field "${error.path}" is refused: ${problem}`
}

/** Calls the default export's create() once, as one germination does. */
export async function createInstance(
  module: unknown,
  failures: Failures,
): Promise<Record<string, unknown> | undefined> {
  if (!isRecord(module) || typeof module.create !== 'function') {
    failures.add('module: the default export has no create() function')
    return undefined
  }
  const create = module.create as () => unknown
  const created = await failures.attempt(
    () => create.call(module),
    (error) => `module: create() threw: ${error}`,
  )
  if (!created.ok) return undefined
  if (!isRecord(created.value)) {
    failures.add(`module: create() returned ${typeof created.value} rather than an object`)
    return undefined
  }
  return created.value
}

/** Reports every required member of the instance that is not a function; true when all are. */
export function requireFunctions(
  instance: Record<string, unknown>,
  names: readonly string[],
  failures: Failures,
): boolean {
  const missing = names.filter((name) => typeof instance[name] !== 'function')
  for (const name of missing) failures.add(`module: create() returned no ${name}() function`)
  return missing.length === 0
}

/** Reports an optional member that is present but not a function; true when it may be called. */
export function optionalFunction(
  instance: Record<string, unknown>,
  name: string,
  failures: Failures,
): boolean {
  const member = instance[name]
  if (member === undefined) return false
  if (typeof member === 'function') return true
  failures.add(`module: ${name} is ${typeof member}, not a function`)
  return false
}

/** Calls a member of the instance as a method, so a class-based instance keeps its `this`. */
export function callMember(instance: Record<string, unknown>, name: string, ...args: unknown[]): unknown {
  return (instance[name] as (...args: unknown[]) => unknown).apply(instance, args)
}

/** A plain direct message, as a hypha would emit it. */
export function syntheticMessage(fields: Partial<IncomingMessage> = {}): IncomingMessage {
  return {
    channel: 'conformance',
    conversationId: 'conformance',
    messageId: 'conformance-1',
    sender: { channel: fields.channel ?? 'conformance', externalId: 'conformance-sender' },
    text: '',
    attachments: [],
    raw: null,
    receivedAt: new Date(),
    ...fields,
  }
}
