import type { HyphaManifest } from '../contract/index.ts'
import { checkConfigSchema } from './config-schema.ts'
import type { Failures } from './failures.ts'
import { checkMigrations } from './migrations.ts'
import type { HyphaCheckOptions } from './options.ts'
import { checkRoutes } from './routes.ts'
import { SeptumUse } from './septum-use.ts'
import { callMember, checkManifest, createInstance, requireFunctions, runChecks } from './spore.ts'

/**
 * Checks a hypha: manifest, config schema, group_membership consistency, then connect(), listen(),
 * one send(), listGroupMembers() when a group is given, and stop().
 */
export function hyphaChecks<C = Record<string, unknown>>(given: HyphaCheckOptions<C>): Promise<string[]> {
  const use = new SeptumUse(given.module)
  const options = { ...given, context: use.watch(given.context) }
  return runChecks(async (failures) => {
    const manifest = checkManifest('hypha', options, failures, use)
    if (manifest === undefined) return
    checkConfigSchema(options.module, options, failures)
    await checkMigrations(options.module, failures)
    const instance = await createInstance(options.module, failures)
    if (instance === undefined) return
    checkRoutes(manifest, instance, failures)
    const complete = requireFunctions(instance, ['connect', 'listen', 'stop', 'send'], failures)
    const lists = checkMembership(manifest, instance, failures)
    if (!complete) return

    const context = await failures.attempt(
      () => options.context(),
      (error) => `connect(): context() threw: ${error}`,
    )
    if (!context.ok) return
    const connected = await failures.attempt(
      async () => callMember(instance, 'connect', context.value),
      (error) => `connect(): threw: ${error}`,
    )
    if (!connected.ok) return
    const listening = await failures.attempt(
      async () => callMember(instance, 'listen'),
      (error) => `listen(): threw: ${error}`,
    )
    if (listening.ok) {
      const conversationId = options.conversationId ?? 'conformance'
      await failures.attempt(
        async () => callMember(instance, 'send', conversationId, { text: 'conformance check' }),
        (error) => `send("${conversationId}", { text }): threw: ${error}`,
      )
      if (options.membershipGroupId !== undefined) {
        await checkMembers(instance, options.membershipGroupId, lists, failures)
      }
    }
    await failures.attempt(
      async () => callMember(instance, 'stop'),
      (error) => `stop(): threw: ${error}`,
    )
  }, use)
}

/** The core asks listGroupMembers() exactly when the manifest promises group_membership. */
function checkMembership(
  manifest: HyphaManifest,
  instance: Record<string, unknown>,
  failures: Failures,
): 'lists' | 'reported' | 'absent' {
  const declared = manifest.capabilities.includes('group_membership')
  const member = instance.listGroupMembers
  if (member !== undefined && typeof member !== 'function') {
    failures.add(`module: listGroupMembers is ${typeof member}, not a function`)
    return 'reported'
  }
  if (declared && member === undefined) {
    failures.add('capabilities: declares group_membership, but the hypha has no listGroupMembers()')
    return 'reported'
  }
  if (!declared && member !== undefined) {
    failures.add('capabilities: the hypha has listGroupMembers() but does not declare group_membership')
  }
  return member === undefined ? 'absent' : 'lists'
}

async function checkMembers(
  instance: Record<string, unknown>,
  groupId: string,
  lists: 'lists' | 'reported' | 'absent',
  failures: Failures,
): Promise<void> {
  const where = `listGroupMembers("${groupId}")`
  if (lists === 'reported') return
  if (lists === 'absent') {
    failures.add(`${where}: a membershipGroupId was given, but the hypha has no listGroupMembers()`)
    return
  }
  const members = await failures.attempt(
    async () => callMember(instance, 'listGroupMembers', groupId),
    (error) => `${where}: threw: ${error}`,
  )
  if (members.ok && !Array.isArray(members.value)) {
    failures.add(`${where}: resolved ${members.value === null ? 'null' : typeof members.value}, not an array`)
  }
}
