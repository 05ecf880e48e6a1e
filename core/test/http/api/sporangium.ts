// A signed sporangium on loopback offering `probe` at two strains, packed from real spore folders
// the way the publishing tool packs them, for the install routes and their progress.
import { join } from 'node:path'
import { probeArchive } from '../../sporangium/install/ground.ts'
import { type IndexServer, serveIndex } from '../../support/index-server.ts'
import { newPublisher, writeSporangium } from '../../support/publisher.ts'

/** What a bot needs in mycelo.yaml to fetch from loopback. */
export const LOOPBACK_SPORANGIA = 'sporangia: { allowLoopbackHttp: true }\n'

export async function serveProbeSporangium(folder: string): Promise<IndexServer> {
  const archive = (strain: string) => probeArchive(folder, strain)
  const sporangium = join(folder, 'sporangium')
  await writeSporangium(sporangium, {
    publisher: await newPublisher(),
    spores: {
      probe: {
        description: 'Says hi',
        strains: { '1.0.0': { bytes: await archive('1.0.0') }, '1.1.0': { bytes: await archive('1.1.0') } },
      },
    },
  })
  return serveIndex(sporangium)
}
