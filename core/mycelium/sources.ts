import {
  type Inoculation,
  type InoculationRequest,
  type OfferedSpore,
  type Outcome,
  type OutcomeOf,
  SEPTUM_VERSION,
  type SourcesManage,
  type UninstallOptions,
} from '@mycelo/septum'
import { audited } from '../audit/audited.ts'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import { type SourceOutcomes, sourceOutcomes } from '../sporangium/sources.ts'
import { installRecords } from '../store/install-rows.ts'
import { refused, settling } from './outcome.ts'
import { readerLocale } from './reader-locale.ts'

/** sources.manage as the core's own surfaces call it: every business refusal is an Outcome. */
export interface SourceManageOutcomes extends SourceOutcomes {
  inoculate(
    request: InoculationRequest & {
      readonly onProgress?: (received: number, total: number | undefined) => void
    },
  ): Promise<OutcomeOf<Inoculation>>
  offered(sourceId: string): Promise<OutcomeOf<readonly OfferedSpore[]>>
  upgrade(spore: string, onProgress?: Progress): Promise<OutcomeOf<Inoculation>>
  rollBack(spore: string): Promise<OutcomeOf<Inoculation>>
  uninstall(spore: string, options?: UninstallOptions): Promise<Outcome>
}

type Progress = (received: number, total: number | undefined) => void

// Fetching and installing (drivers, archives, staging) are loaded at the first install, listing or
// removal: a bot that only runs its spores never holds them.
const fetching = () => import('../sporangium/fetching.ts')
const installation = () => import('../sporangium/installation.ts')

export function sourceManageOutcomes(runtime: CoreRuntime): SourceManageOutcomes {
  const { store, plugins, config, logger } = runtime
  const inoculate = async (request: InoculationRequest & { readonly onProgress?: Progress }) => {
    // Every fetch-side refusal comes back before the install side is asked to touch a folder.
    const [{ fetchStrain }, { installStrain }] = await Promise.all([fetching(), installation()])
    const fetched = await fetchStrain({ store, config }, request)
    if (!fetched.ok) return fetched
    const { spore, strain, source, bytes, sha256, carried } = fetched.value
    const installed = await installStrain(
      { store, plugins, config, logger },
      { spore, strain, source, bytes, sha256, ...(carried ? { carried } : {}) },
    )
    // What the running bot shows follows at once: a new spore listed disabled with its reason.
    if (installed.ok) await runtime.lifecycle.settle(spore)
    return installed
  }
  return audited(runtime, 'sources.manage', {
    ...sourceOutcomes({ store, config }),
    inoculate,
    // Described in the reader's language where the source carries the spore's own words for it.
    offered: async (sourceId) =>
      (await fetching()).offeredBy({ store, config }, sourceId, readerLocale(config.defaultLocale)),
    async upgrade(spore, onProgress) {
      const installed = installRecords(store).get(spore)
      const source = installed?.source ?? undefined
      if (source === undefined) return refused('spore_not_installed', { spore })
      const { offeredBy, newestRunningHere } = await fetching()
      const offered = await offeredBy({ store, config }, source)
      if (!offered.ok) return offered
      const strains = offered.value.find((candidate) => candidate.name === spore)?.strains ?? []
      const newest = newestRunningHere(strains)?.strain
      if (newest === undefined)
        return refused('sporangium_no_strain', { spore, source, septum: SEPTUM_VERSION })
      // Never a step back: a strain installed by name may be newer than what the source now offers.
      const current = installed?.strain ?? undefined
      if (current !== undefined && Bun.semver.order(newest, current) <= 0) {
        return refused('upgrade_current', { spore, strain: current, source })
      }
      return inoculate({ source, spore, strain: newest, ...(onProgress ? { onProgress } : {}) })
    },
    async rollBack(spore) {
      const { rollBack } = await installation()
      const rolled = await rollBack({ store, plugins, config, logger }, spore)
      if (rolled.ok) await runtime.lifecycle.settle(spore)
      return rolled
    },
    async uninstall(spore, options = {}) {
      // Asked, not assumed: a spore that stored something is only uninstalled once the operator
      // says whether its data stays for a reinstall or goes with it.
      if (options.keepData === undefined) {
        const held = runtime.holdings.held(spore)
        if (held.entries + held.schedules > 0) return refused('uninstall_data_unsaid', { spore, ...held })
      }
      const { uninstall } = await installation()
      const removed = await uninstall({ store, plugins, config, logger }, spore)
      if (!removed.ok) return removed
      await runtime.lifecycle.settle(spore)
      // Once the spore has stopped and left: nothing of it can write while its data goes.
      if (options.keepData === false) {
        const deleted = runtime.holdings.purge(spore)
        logger.info('spore data deleted', { spore, ...deleted })
      }
      return removed
    },
  })
}

/** sources.manage as a spore holds it: listing resolves, every other refusal rejects with a RefusalError. */
export function sourcesManage(runtime: CoreRuntime): SourcesManage {
  const outcomes = sourceManageOutcomes(runtime)
  const settle = settling(runtime.translator)
  return {
    listSources: () => outcomes.listSources(),
    async addSource(source) {
      return settle.value(await outcomes.addSource(source))
    },
    async updateSource(id, patch) {
      return settle.value(await outcomes.updateSource(id, patch))
    },
    async deleteSource(id) {
      return settle.done(await outcomes.deleteSource(id))
    },
    async inoculate(request) {
      return settle.value(await outcomes.inoculate(request))
    },
    async offered(sourceId) {
      return settle.value(await outcomes.offered(sourceId))
    },
    async upgrade(spore) {
      return settle.value(await outcomes.upgrade(spore))
    },
    async rollBack(spore) {
      return settle.value(await outcomes.rollBack(spore))
    },
    async uninstall(spore, options) {
      return settle.done(await outcomes.uninstall(spore, options))
    },
  }
}
