import { afterEach, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { runtimeSources } from '../../hosts/runtime-build.ts'
import { ROOT } from '../boot/process.ts'
import { startTestCore, type TestCore } from '../support/runtime.ts'
import { answered, FAULT_CONFIG, faultyEnzyme } from './fault-spores.ts'

// Every host loads its own copy of whatever its runtime imports, so an idle host's memory and each
// host's start are what that graph weighs. What only some spores need loads when one asks for it.

let core: TestCore | undefined
afterEach(async () => {
  await core?.stop()
  core = undefined
})

/** Loaded in a host only when its spore needs them, never by the host itself. */
const ON_DEMAND = {
  'Effect and the operations adapter (a spore with operations)': /\/node_modules\/effect\/|\/core\/agent\//,
  'zod and the contract package index (a spore importing them)':
    /\/node_modules\/zod\/|\/septum\/src\/index\.ts$/,
  'catalogue compiling (intl-messageformat, yaml)': /\/node_modules\/(intl-messageformat|@formatjs|yaml)\//,
  'the packing tool (an executable bundling a spore)': /\/sporangia\/tool\//,
  'reading a failed import for its position': /\/core\/germination\/load-fault\.ts$/,
}

/** An enzyme importing nothing that answers with the modules its host has loaded, one a line. */
const LISTING = faultyEnzyme('listing', "await ctx.reply({ text: Object.keys(require.cache).join('\\n') })")

describe("an idle spore host's own modules", () => {
  it('are the bridge and module loading, and none of what only some spores need', async () => {
    core = await startTestCore({
      spores: { listing: LISTING },
      config: FAULT_CONFIG,
      grants: { alice: ['owner'] },
    })
    const [reply] = await answered(core, '/listing', 'alice', 5_000)
    // The host runs its runtime built into a few files: each stands for the sources it holds.
    const modules = await runtimeSources((reply ?? '').split('\n'))
    // The list is the host's own: its entry and the spore are in it.
    expect(modules).toContain(join(ROOT, 'core/hosts/host-main.ts'))
    expect(modules.some((path) => path.endsWith('/listing/src/index.ts'))).toBe(true)
    for (const [need, pattern] of Object.entries(ON_DEMAND)) {
      expect({ need, loaded: modules.filter((path) => pattern.test(path)) }).toEqual({ need, loaded: [] })
    }
  })
})
