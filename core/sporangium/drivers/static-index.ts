// A sporangium that is a folder on any static web server: `<url>/index.json`, archives beside it.
import { sporangiumIndexSchema } from '@mycelo/septum'
import { refused } from '../../mycelium/outcome.ts'
import { download } from '../download.ts'
import type { SporangiumDriver, SporeOffer } from './driver.ts'
import type { DriverContext } from './select.ts'

export function staticIndexDriver(context: DriverContext): SporangiumDriver {
  const folder = context.source.url.endsWith('/') ? context.source.url : `${context.source.url}/`
  const headers: Record<string, string> = context.source.token
    ? { authorization: `Bearer ${context.source.token}` }
    : {}
  const fetchWithin = (url: string, onProgress?: (received: number, total: number | undefined) => void) =>
    download(url, { ...context.bounds, headers, ...(onProgress ? { onProgress } : {}) })

  return {
    async offering() {
      const fetched = await fetchWithin(new URL('index.json', folder).href)
      if (!fetched.ok) return fetched
      let json: unknown
      try {
        json = JSON.parse(new TextDecoder().decode(fetched.value.bytes))
      } catch {
        return refused('sporangium_index_invalid', { source: context.source.id })
      }
      const parsed = sporangiumIndexSchema.safeParse(json)
      if (!parsed.success) return refused('sporangium_index_invalid', { source: context.source.id })
      const index = parsed.data
      const spores: SporeOffer[] = Object.entries(index.spores).map(([name, entry]) => ({
        name,
        kind: entry.kind,
        ...(entry.description ? { description: entry.description } : {}),
        strains: Object.entries(entry.strains).map(([strain, s]) => ({
          strain,
          septum: s.septum,
          size: s.size,
          sha256: s.sha256,
          published: s.published,
          archive: new URL(s.archive, folder).href,
          ...(s.signature ? { signature: s.signature } : {}),
        })),
      }))
      return {
        ok: true,
        value: { ...(index.publisher ? { publisherKey: index.publisher.key } : {}), spores },
      }
    },
    archive: (offer, onProgress) => fetchWithin(offer.archive, onProgress),
    async signature(offer) {
      return { ok: true, value: offer.signature }
    },
  }
}
