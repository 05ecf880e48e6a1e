// What a bot idling on the checkout's own spores has loaded: the parts of the core only a surface
// it has not used needs stay on disk until that surface is first used (each surface's own tests
// show it working from there). Every module held costs resident memory for the bot's whole life.
import { afterAll, describe, expect, it } from 'bun:test'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { scratchFolder } from '../store/scratch.ts'
import { ROOT, startBoot } from './process.ts'

const scratch = scratchFolder('boot-idle-modules')
afterAll(() => scratch.remove())

/** Loaded only when the surface that needs them is used, never by a bot that only runs. */
const LATER = {
  'the publishing tool, tar and zlib (packing the carried strains)':
    /\/sporangia\/tool\/strain-archive\.ts$|\/node_modules\/tar\//,
  'fetching and installing strains': /\/core\/sporangium\/(fetching|installation)\.ts$/,
  'the HTTP app and its routes': /\/node_modules\/hono\/|\/core\/http\/api\/(?!events\.ts)/,
  'human-readable logs (a terminal only)': /\/node_modules\/pino-pretty\//,
  'the agent and MCP': /\/core\/agent\/|\/node_modules\/@modelcontextprotocol\//,
  'backup, restore and configuration as code': /\/core\/operations\//,
}

async function loadedAtIdle(): Promise<string[]> {
  const config = join(scratch.path, 'mycelo.yaml')
  writeFileSync(config, `spores: [${join(ROOT, 'spores')}]\ndatabase: data/mycelo.db\nhttp: { port: 0 }\n`)
  const listed = join(scratch.path, 'modules.txt')
  const boot = startBoot(
    config,
    { MYCELO_LOG_LEVEL: 'warn', MYCELO_TEST_LOADED_MODULES: listed },
    {
      command: ['bun', '--preload', join(ROOT, 'core/test/support/loaded-modules.ts'), 'core/boot/main.ts'],
    },
  )
  try {
    await boot.waitFor('Mycelo is running')
    boot.child.kill('SIGUSR2')
    while (!existsSync(listed)) await Bun.sleep(20)
    return readFileSync(listed, 'utf8').split('\n')
  } finally {
    boot.child.kill('SIGTERM')
    await boot.exited()
  }
}

describe('a bot idling on its own spores', () => {
  it('has loaded its start-up and spores, and none of what only an unused surface needs', async () => {
    const modules = await loadedAtIdle()
    // The list is the real one: what start-up ran is in it.
    expect(modules).toContain(join(ROOT, 'core/boot/startup.ts'))
    expect(modules).toContain(join(ROOT, 'spores/help/src/index.ts'))
    for (const [surface, pattern] of Object.entries(LATER)) {
      expect({ surface, loaded: modules.filter((path) => pattern.test(path)) }).toEqual({
        surface,
        loaded: [],
      })
    }
  })
})
