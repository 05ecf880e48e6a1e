// Imported rather than read, so the executable `bun run build` compiles carries it too.
import packageJson from '../../../package.json' with { type: 'json' }

/** This Mycelo's version, as its package.json says: what a backup records and a restore compares. */
export const MYCELO_VERSION: string = packageJson.version
