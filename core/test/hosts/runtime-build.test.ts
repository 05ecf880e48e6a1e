import { afterEach, beforeEach, describe, expect, it } from 'bun:test'
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { builtModule, hostRuntime } from '../../hosts/runtime-build.ts'
import { scratchFolder } from '../store/scratch.ts'

// The host's runtime runs built into one module, made at first use from the sources as they are:
// a clone needs no build step, and a source changed since the last build is built anew.

let scratch: ReturnType<typeof scratchFolder>
let sources: string
let cache: string
beforeEach(() => {
  scratch = scratchFolder('runtime-build')
  sources = join(scratch.path, 'src')
  cache = join(scratch.path, 'cache')
  mkdirSync(join(sources, 'lazy'), { recursive: true })
  writeFileSync(join(sources, 'value.ts'), "export const value: string = 'first'\n")
  writeFileSync(join(sources, 'lazy', 'where.ts'), 'export const where = import.meta.dir\n')
  writeFileSync(
    join(sources, 'main.ts'),
    [
      "import { value } from './value.ts'",
      "const { where } = await import('./lazy/where.ts')",
      'postMessage({ value, where, path: import.meta.path })',
    ].join('\n'),
  )
})
afterEach(() => scratch.remove())

/** What the built module says when a worker runs it. */
async function run(url: string): Promise<{ value: string; where: string; path: string }> {
  const worker = new Worker(url, { smol: true })
  try {
    return await new Promise((resolve, reject) => {
      worker.onmessage = (event) => resolve(event.data)
      worker.onerror = (event) => reject(event.error ?? new Error(String(event.message)))
    })
  } finally {
    worker.terminate()
  }
}

describe("the host runtime's build", () => {
  it('runs as its sources do, import.meta naming each source, a lazy import in a chunk of its own', async () => {
    const built = await builtModule(join(sources, 'main.ts'), cache)
    expect(built.folder.startsWith(cache)).toBe(true)
    expect(await run(built.url)).toEqual({
      value: 'first',
      where: join(sources, 'lazy'),
      path: join(sources, 'main.ts'),
    })
    // The lazy module is held by a file the entry does not load until it is imported.
    const holders = Object.entries(built.stamp.outputs).filter(([, inputs]) =>
      inputs.includes(join(sources, 'lazy', 'where.ts')),
    )
    expect(holders.map(([file]) => file)).not.toContain(built.stamp.entry)
    expect(holders).toHaveLength(1)
  })

  it('is made once for the same sources, and anew when one of them changes', async () => {
    const first = await builtModule(join(sources, 'main.ts'), cache)
    const again = await builtModule(join(sources, 'main.ts'), cache)
    expect(again.folder).toBe(first.folder)
    writeFileSync(join(sources, 'value.ts'), "export const value: string = 'second'\n")
    const changed = await builtModule(join(sources, 'main.ts'), cache)
    expect(changed.folder).not.toBe(first.folder)
    expect((await run(changed.url)).value).toBe('second')
    // The earlier build stays for a process still running from it.
    expect(readdirSync(cache).filter((name) => !name.startsWith('.') && name !== 'current')).toHaveLength(2)
  })

  it('refuses sources that do not build, naming the fault', async () => {
    writeFileSync(join(sources, 'value.ts'), "export const value = 'unclosed\n")
    await expect(builtModule(join(sources, 'main.ts'), cache)).rejects.toThrow(/value\.ts/)
    expect(readdirSync(cache).filter((name) => name.startsWith('.'))).toEqual([])
  })

  it('is what a spore host starts from in a checkout', async () => {
    expect(await hostRuntime()).toMatch(/node_modules\/\.cache\/mycelo-host-runtime\/[^/]+\/host-main\.js$/)
  })
})
