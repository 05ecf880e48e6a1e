import type { OutcomeOf, PluginKind } from '@mycelo/septum'
import type { DownloadOutcome } from '../download.ts'

/** One strain a sporangium offers, with what proves its archive. */
export interface StrainOffer {
  readonly strain: string
  readonly septum: string
  readonly size: number
  /** Lowercase hex, as the source published it. */
  readonly sha256: string
  readonly published?: string
  /** Base64 Ed25519 signature when the listing carries it inline (an index). */
  readonly signature?: string
  /** Where the driver fetches the archive (and, for GitHub, the signature) from. */
  readonly archive: string
  readonly signatureAsset?: string
  /** Packed from the checkout's own copy of the spore, not downloaded (see carried.ts). */
  readonly carried?: true
}

export interface SporeOffer {
  readonly name: string
  readonly kind: PluginKind
  readonly description?: string
  /** The description in each language the spore words it in, when the source knows them (a carried strain). */
  readonly descriptions?: Readonly<Record<string, string>>
  readonly strains: readonly StrainOffer[]
}

/** What a sporangium offers right now. */
export interface Offering {
  /** The key the listing itself names, when it names one; only ever pinned, never trusted as is. */
  readonly publisherKey?: string
  readonly spores: readonly SporeOffer[]
}

/** One kind of sporangium: how to read what it offers and fetch what it lists. */
export interface SporangiumDriver {
  offering(): Promise<OutcomeOf<Offering>>
  archive(
    offer: StrainOffer,
    onProgress?: (received: number, total: number | undefined) => void,
  ): Promise<DownloadOutcome>
  /** The strain's signature when it has one (base64), undefined when it has none. */
  signature(offer: StrainOffer): Promise<OutcomeOf<string | undefined>>
}
