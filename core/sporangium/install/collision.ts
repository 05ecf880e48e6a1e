import { join } from 'node:path'
import type { Logger } from '@mycelo/septum'
import { discoverSpores } from '../../germination/discovery.ts'
import { readDiscovered } from '../../germination/manifest-reading.ts'

/** Discovery's notes on a missing spores folder are about the bot's start, not an install. */
const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quiet }

/**
 * The folder of a spore the core discovers under the same name anywhere but the install's own
 * folder (a shipped spore, a hand-copied one): installing beside it would stop the bot starting.
 */
export async function collidingFolder(options: {
  readonly folders: readonly string[]
  readonly installs: string
  readonly spore: string
}): Promise<string | undefined> {
  const own = join(options.installs, options.spore)
  const readings = await readDiscovered(await discoverSpores(options.folders, quiet))
  return readings.find((reading) => reading.name === options.spore && reading.dir !== own)?.dir
}
