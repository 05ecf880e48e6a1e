import { afterAll, describe, expect, it } from 'bun:test'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT, startBoot } from '../../../core/test/boot/process.ts'
import { scratchFolder } from '../../../core/test/store/scratch.ts'

// The bot on the repository's own spores, where Discord has no token and so starts disabled: its
// channel library must not be in the bot's memory, on the first start (which checks every spore's
// settings) nor on a later one. A preload lists every module the process loaded when it exits.
const scratch = scratchFolder('discord-idle')
afterAll(() => scratch.remove())

const config = join(scratch.path, 'mycelo.yaml')
writeFileSync(
  config,
  `spores: [${join(ROOT, 'spores')}]\ndatabase: ${join(scratch.path, 'mycelo.db')}\nhttp:\n  port: 0\n`,
)
const listing = join(scratch.path, 'modules.txt')
const hostListing = join(scratch.path, 'host-modules.txt')
const preload = join(scratch.path, 'list-modules.ts')
const hostPreload = join(scratch.path, 'list-host-modules.ts')
// A spore run in a host (MYCELO_ISOLATION=worker runs them all there) loads in a worker, which the
// process's preload does not reach: every worker gets one of its own, which adds what its thread has
// loaded to the listing before each message it sends (a host answers its load before it is ended).
writeFileSync(
  preload,
  `import { writeFileSync } from 'node:fs'
process.on('exit', () => writeFileSync(${JSON.stringify(listing)}, Object.keys(require.cache).join('\\n')))
const Thread = globalThis.Worker
globalThis.Worker = class extends Thread {
  constructor(url, options = {}) {
    super(url, { ...options, preload: [...(options.preload ?? []), ${JSON.stringify(hostPreload)}] })
  }
}
`,
)
writeFileSync(
  hostPreload,
  `import { appendFileSync } from 'node:fs'
const listed = new Set()
const list = () => {
  const loaded = Object.keys(require.cache).filter((path) => !listed.has(path))
  for (const path of loaded) listed.add(path)
  if (loaded.length > 0) appendFileSync(${JSON.stringify(hostListing)}, loaded.join('\\n') + '\\n')
}
const post = globalThis.postMessage
globalThis.postMessage = (...args) => (list(), post.apply(globalThis, args))
const portPost = MessagePort.prototype.postMessage
MessagePort.prototype.postMessage = function (...args) {
  list()
  return portPost.apply(this, args)
}
`,
)

/** Every module the bot loaded, on its own thread and in its hosts' workers. */
async function modulesOfOneRun(): Promise<string[]> {
  rmSync(hostListing, { force: true })
  // Kept beside any preload the test run gives the processes it starts (hosted-spores.ts).
  const options = [process.env.BUN_OPTIONS, `--preload ${preload}`].filter(Boolean).join(' ')
  const booted = startBoot(config, { BUN_OPTIONS: options })
  await booted.waitFor('Mycelo is running')
  booted.child.kill('SIGTERM')
  expect(await booted.exited()).toBe(0)
  const inHosts = existsSync(hostListing) ? readFileSync(hostListing, 'utf8').split('\n') : []
  return [...readFileSync(listing, 'utf8').split('\n'), ...inHosts]
}

const discordLibrary = (path: string) => path.includes('/node_modules/discord.js/')

describe('a disabled Discord spore', () => {
  it('leaves discord.js unloaded on the first start and on a later one', async () => {
    for (const start of ['first', 'later']) {
      const modules = await modulesOfOneRun()
      // The listing does hold the spores that run: the console channel's module is there.
      expect(
        modules.some((path) => path.endsWith(join('spores', 'console', 'src', 'index.ts'))),
        start,
      ).toBe(true)
      expect(modules.filter(discordLibrary), start).toEqual([])
    }
  })

  it('has settings that can be checked without its channel library', async () => {
    const script = join(scratch.path, 'check-settings.ts')
    writeFileSync(
      script,
      `const { default: module } = await import(${JSON.stringify(join(ROOT, 'spores', 'discord', 'src', 'index.ts'))})
const verdict = module.configSchema.safeParse({ token: '' })
console.log(JSON.stringify({ ok: verdict.success, loaded: Object.keys(require.cache).some((path) => path.includes('/node_modules/discord.js/')) }))
`,
    )
    const child = Bun.spawn(['bun', '--no-install', script], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' })
    const [out, err, code] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ])
    expect(code, err).toBe(0)
    expect(JSON.parse(out)).toEqual({ ok: false, loaded: false })
  })
})
