import { afterAll, describe, expect, it } from 'bun:test'
import { cpSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { releasableMappings } from '../../boot/release-pages.ts'
import { createPluginStore, openStore } from '../../store/index.ts'
import { scratchFolder } from '../store/scratch.ts'
import { ROOT, runBun, startBoot } from './process.ts'

const scratch = scratchFolder('boot-release-pages')
afterAll(() => scratch.remove())

const BUN = '/opt/bun/bin/bun.exe'
const SMAPS = `00200000-01a39000 r--p 00000000 fe:00 1442257                            ${BUN}
Rss:                8404 kB
Anonymous:             0 kB
01a40000-0684a000 r-xp 01838000 fe:00 1442257                            ${BUN}
Size:              79912 kB
Rss:               36580 kB
Anonymous:             0 kB
0684a000-0685f000 rw-p 06641000 fe:00 1442257                            ${BUN}
Rss:                  84 kB
Anonymous:            72 kB
0685f000-06867000 r--p 06656000 fe:00 1442257                            ${BUN}
Rss:                  12 kB
Anonymous:            12 kB
7f368cbc4000-7f368cd1a000 r-xp 00028000 fe:00 1443001                    /usr/lib/libc.so.6
Rss:                1180 kB
Anonymous:             0 kB
324d5a00000-32515a00000 rw-p 00000000 00:00 0 
Rss:               26100 kB
Anonymous:         26100 kB
`

describe('releasing the executable pages start-up read', () => {
  it("picks the executable's read-only mappings that hold only the file's bytes", () => {
    expect(releasableMappings(SMAPS, BUN)).toEqual([
      { start: 0x200000n, length: 0x1a39000n - 0x200000n, residentKiB: 8404 },
      { start: 0x1a40000n, length: 0x684a000n - 0x1a40000n, residentKiB: 36580 },
    ])
    // Written pages (a writable mapping, or a read-only one with copies in it) are never picked.
    expect(releasableMappings(SMAPS, '/usr/lib/libc.so.6')).toHaveLength(1)
    expect(releasableMappings(SMAPS, '/elsewhere/bun')).toEqual([])
  })

  it("finds Bun's own code in this process's mappings", () => {
    const found = releasableMappings(readFileSync('/proc/self/smaps', 'utf8'), realpathSync(process.execPath))
    expect(found.length).toBeGreaterThan(0)
    expect(found.some((mapping) => mapping.residentKiB > 0)).toBe(true)
  })

  it('lowers resident file pages, and everything Bun does still works after', async () => {
    const script = join(scratch.path, 'release.ts')
    writeFileSync(
      script,
      `import { Database } from 'bun:sqlite'
import { readFileSync, writeFileSync } from 'node:fs'
import { releaseExecutablePages } from ${JSON.stringify(join(ROOT, 'core/boot/release-pages.ts'))}
const file = () => Number(/RssFile:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1])
const before = file()
const released = await releaseExecutablePages()
const after = file()
// Code that had not run yet, and code that had: both map their pages again.
writeFileSync(${JSON.stringify(join(scratch.path, 'later.ts'))}, 'export const twice = (n: number): number => n * 2')
const { twice } = await import(${JSON.stringify(join(scratch.path, 'later.ts'))})
const database = new Database(':memory:')
const row = database.query('SELECT ? * 3 AS n').get(twice(7)) as { n: number }
const plural = new Intl.PluralRules('fr').select(1.5)
console.log(JSON.stringify({ released, before, after, n: row.n, plural }))
`,
    )
    const run = await runBun([script], { ...process.env })
    expect(run.stderr).toBe('')
    const result = JSON.parse(run.stdout)
    expect(result.released.mappings).toBeGreaterThan(0)
    expect(result.after).toBeLessThan(result.before)
    expect({ n: result.n, plural: result.plural }).toEqual({ n: 42, plural: 'one' })
  })

  it('a bot answers its first command after it released them', async () => {
    const spores = join(scratch.path, 'bot', 'spores')
    mkdirSync(spores, { recursive: true })
    for (const spore of ['console', 'help'])
      cpSync(join(ROOT, 'spores', spore), join(spores, spore), { recursive: true })
    const config = join(scratch.path, 'bot', 'mycelo.yaml')
    const database = join(scratch.path, 'bot', 'mycelo.db')
    writeFileSync(config, `spores: [${spores}]\ndatabase: ${database}\nhttp: { port: 0 }\n`)
    const store = openStore({ path: database })
    createPluginStore(store).setSetting('console', 'interactive', 'always')
    store.close()
    const boot = startBoot(config, { MYCELO_LOG_LEVEL: 'debug' })
    try {
      await boot.waitFor('released start-up code pages')
      boot.child.stdin.write('/help help\n')
      boot.child.stdin.flush()
      await boot.waitFor('/help [command]')
    } finally {
      boot.child.kill('SIGTERM')
    }
    expect(await boot.exited()).toBe(0)
  })
})
