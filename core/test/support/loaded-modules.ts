// Preloaded into a bot a test starts (`bun --preload`): on SIGUSR2 it writes the path of every
// module loaded so far, one a line, to the file MYCELO_TEST_LOADED_MODULES names. Bun lists ES
// modules in require.cache too.
import { renameSync, writeFileSync } from 'node:fs'

const file = process.env.MYCELO_TEST_LOADED_MODULES
if (file !== undefined) {
  process.on('SIGUSR2', () => {
    // Whole or not at all: the test reads the file as soon as it exists.
    writeFileSync(`${file}.part`, Object.keys(require.cache).join('\n'))
    renameSync(`${file}.part`, file)
  })
}
