import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** This Mycelo's version, as its package.json says: what a backup records and a restore compares. */
export const MYCELO_VERSION: string = (
  JSON.parse(readFileSync(join(import.meta.dir, '..', '..', '..', 'package.json'), 'utf8')) as {
    version: string
  }
).version
