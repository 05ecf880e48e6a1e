// Run by crash.test.ts as its own process: installs a strain with the real installStrain, and
// says "unpacking" half-way through staging, then waits there to be killed with SIGKILL.
import { readFileSync } from 'node:fs'
import type { Logger } from '@mycelo/septum'
import { loadConfig } from '../../../boot/config.ts'
import { installStrain } from '../../../sporangium/installation.ts'
import { diskFiles, type StagingFiles } from '../../../sporangium/staging/files.ts'
import { createPluginStore, openStore } from '../../../store/index.ts'
import { archiveOf } from './ground.ts'

const [configPath, archivePath, spore, pauseAt] = process.argv.slice(2) as [string, string, string, string]
const config = loadConfig({ path: configPath, env: {} })
const store = openStore({ path: config.database })
const silent: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent }
let created = 0
const pausing: StagingFiles = {
  makeFolder: diskFiles.makeFolder,
  async create(path) {
    created++
    if (created === Number(pauseAt)) {
      process.stdout.write('unpacking\n')
      await Bun.sleep(60 * 60 * 1000)
    }
    return diskFiles.create(path)
  },
}
const deps = { store, plugins: createPluginStore(store), config, logger: silent, files: pausing }
await installStrain(deps, archiveOf(spore, new Uint8Array(readFileSync(archivePath)), '2.0.0'))
process.stdout.write('installed\n')
