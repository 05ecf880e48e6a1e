// From a source and a spore's name to an archive proven to be the one its publisher released:
// the strain chosen, the bytes fetched within the core's bounds, then size, digest and signature.
import { createHash } from 'node:crypto'
import {
  type OfferedSpore,
  type OutcomeOf,
  type PluginKind,
  SEPTUM_VERSION,
  septumIncompatibility,
} from '@mycelo/septum'
import type { MyceloConfig } from '../boot/config.ts'
import { type Refusal, refused } from '../mycelium/outcome.ts'
import type { Store } from '../store/index.ts'
import type { Offering, SporangiumDriver, SporeOffer, StrainOffer } from './drivers/driver.ts'
import { driverFor } from './drivers/select.ts'
import type { StrainArchive } from './installation.ts'
import { verifyStrainSignature } from './signature.ts'
import { pinPublisherKey, type SourceRow, sourceRow } from './source-rows.ts'
import { urlRefusal } from './sources.ts'
import { isLocalSource } from './url-policy.ts'

export interface FetchingDeps {
  readonly store: Store
  readonly config: Pick<MyceloConfig, 'sporangia'>
  /** The septum the core runs; defaults to this package's own. */
  readonly septumVersion?: string
}

export interface StrainRequest {
  readonly source: string
  readonly spore: string
  /** The newest strain whose septum range admits the running septum when omitted. */
  readonly strain?: string
  readonly onProgress?: (received: number, total: number | undefined) => void
}

export interface FetchedStrain extends StrainArchive {
  readonly kind: PluginKind
  readonly septum: string
  readonly description?: string
}

export async function fetchStrain(
  deps: FetchingDeps,
  request: StrainRequest,
): Promise<OutcomeOf<FetchedStrain>> {
  const opened = await openSource(deps, request.source)
  if (!opened.ok) return opened
  const { row, driver, offering, publisherKey } = opened.value
  const spore = offering.spores.find((s) => s.name === request.spore)
  if (spore === undefined)
    return refused('sporangium_spore_unknown', { spore: request.spore, source: row.id })
  const chosen = chooseStrain(deps, spore, row.id, request.strain)
  if (!chosen.ok) return chosen
  const offer = chosen.value
  const fetched = await driver.archive(offer, request.onProgress)
  if (!fetched.ok) return { ok: false, refusal: fetched.refusal }
  const { bytes } = fetched.value
  const named = { spore: spore.name, strain: offer.strain }
  if (bytes.byteLength !== offer.size)
    return refused('integrity_size', { ...named, expected: offer.size, actual: bytes.byteLength })
  const sha256 = createHash('sha256').update(bytes).digest('hex')
  if (sha256 !== offer.sha256) return refused('integrity_digest', named)
  // A carried strain comes from the checkout the core itself came from: no publisher to prove.
  if (publisherKey !== undefined && !offer.carried) {
    const signature = await driver.signature(offer)
    if (!signature.ok) return signature
    if (signature.value === undefined) return refused('integrity_signature_missing', named)
    const valid = await verifyStrainSignature({ publisherKey, ...named, sha256, signature: signature.value })
    if (!valid) return refused('integrity_signature_bad', { ...named, source: row.id })
  }
  return {
    ok: true,
    value: {
      ...named,
      source: row.id,
      bytes,
      sha256,
      kind: spore.kind,
      septum: offer.septum,
      ...(spore.description ? { description: spore.description } : {}),
      ...(offer.carried ? { carried: true } : {}),
    },
  }
}

/** The spores a source offers and their strains, newest first. */
export async function offeredBy(
  deps: FetchingDeps,
  sourceId: string,
  locale?: string,
): Promise<OutcomeOf<readonly OfferedSpore[]>> {
  const opened = await openSource(deps, sourceId)
  if (!opened.ok) return opened
  const offered = opened.value.offering.spores.map((spore) => {
    const description = (locale === undefined ? undefined : spore.descriptions?.[locale]) ?? spore.description
    return {
      name: spore.name,
      kind: spore.kind,
      ...(description ? { description } : {}),
      strains: newestFirst(spore.strains).map((s) => ({
        strain: s.strain,
        septum: s.septum,
        ...(s.published ? { published: s.published } : {}),
      })),
    }
  })
  return { ok: true, value: offered.sort((a, b) => a.name.localeCompare(b.name)) }
}

interface OpenedSource {
  readonly row: SourceRow
  readonly driver: SporangiumDriver
  readonly offering: Offering
  /** The pinned key after this read; undefined when the source has none. */
  readonly publisherKey: string | undefined
}

/** The source's checks, then its offering read, with its publisher key pinned or compared. */
async function openSource(deps: FetchingDeps, id: string): Promise<OutcomeOf<OpenedSource>> {
  const row = sourceRow(deps.store, id)
  if (row === undefined) return refused('source_unknown', { source: id })
  if (!row.enabled) return refused('source_disabled', { source: id })
  if (isLocalSource(row.url)) return refused('source_local', { url: row.url })
  // Checked again at every use: the loopback switch may have been turned off since it was added.
  const urlRefused = urlRefusal(deps, row.url)
  if (urlRefused) return urlRefused
  const driver = driverFor(row, deps.config)
  const offering = await driver.offering()
  if (!offering.ok) return offering
  const keyed = publisherKeyOf(deps, row, offering.value)
  if (!keyed.ok) return keyed
  return { ok: true, value: { row, driver, offering: offering.value, publisherKey: keyed.value } }
}

/**
 * Trust on first use: an index naming a key pins it when the source has none. Once pinned, an
 * index naming another key refuses; the pinned one alone verifies.
 */
function publisherKeyOf(
  deps: FetchingDeps,
  row: SourceRow,
  offering: Offering,
): OutcomeOf<string | undefined> {
  const pinned = row.publisherKey ?? undefined
  const named = offering.publisherKey
  if (named === undefined) return { ok: true, value: pinned }
  if (pinned !== undefined && named !== pinned) return refused('integrity_key_changed', { source: row.id })
  return { ok: true, value: pinned ?? pinPublisherKey(deps.store, row.id, named) }
}

function chooseStrain(
  deps: FetchingDeps,
  spore: SporeOffer,
  source: string,
  strain: string | undefined,
): OutcomeOf<StrainOffer> | Refusal {
  const septum = deps.septumVersion ?? SEPTUM_VERSION
  const admits = (offer: StrainOffer) => septumIncompatibility(offer.septum, septum) === undefined
  if (strain !== undefined) {
    const offer = spore.strains.find((s) => s.strain === strain)
    if (offer === undefined)
      return refused('sporangium_strain_unknown', { spore: spore.name, strain, source })
    if (!admits(offer))
      return refused('sporangium_strain_septum', { spore: spore.name, strain, range: offer.septum, septum })
    return { ok: true, value: offer }
  }
  const offer = newestRunningHere(newestFirst(spore.strains), septum)
  if (offer === undefined) return refused('sporangium_no_strain', { spore: spore.name, source, septum })
  return { ok: true, value: offer }
}

/**
 * The strain an unasked install chooses: the newest release proper (never a prerelease) whose
 * range admits this septum. `strains` newest first.
 */
export function newestRunningHere<S extends { readonly strain: string; readonly septum: string }>(
  strains: readonly S[],
  septum: string = SEPTUM_VERSION,
): S | undefined {
  return strains.find(
    (s) =>
      !(s.strain.split('+')[0] ?? '').includes('-') && septumIncompatibility(s.septum, septum) === undefined,
  )
}

function newestFirst(strains: readonly StrainOffer[]): StrainOffer[] {
  return [...strains].sort((a, b) => Bun.semver.order(b.strain, a.strain))
}
