// Installing a 1 MiB strain from a loopback index, the whole inoculate path: the index read, the
// bounded download, size, SHA-256 and Ed25519 checks, the archive scan, staging and the rename.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { create } from 'tar'
import { sourceManageOutcomes } from '../core/mycelium/sources.ts'
import { serveIndex } from '../core/test/support/index-server.ts'
import { newPublisher, writeSporangium } from '../core/test/support/publisher.ts'
import { startTestCore } from '../core/test/support/runtime.ts'

export interface InstallFigures {
  readonly rounds: number
  readonly archiveBytes: number
  readonly meanMs: number
  readonly p50Ms: number
  readonly maxMs: number
  readonly baseRssMiB: number
  readonly peakRssMiB: number
}

const MANIFEST = `kind: enzyme
name: weight
septum: "^1.0"
commands:
  - name: weigh
    description: weigh.description
    respond: weigh.text
`

/** A spore carrying 1 MiB of random bytes, so its gzip archive stays about 1 MiB. */
async function heavyArchive(folder: string): Promise<Uint8Array> {
  const dir = join(folder, 'weight')
  mkdirSync(join(dir, 'translations'), { recursive: true })
  writeFileSync(join(dir, 'spore.yaml'), MANIFEST)
  writeFileSync(join(dir, 'translations', 'en.yaml'), 'weigh:\n  description: Weighs\n  text: heavy\n')
  const payload = new Uint8Array(1024 * 1024)
  for (let at = 0; at < payload.length; at += 65_536)
    crypto.getRandomValues(payload.subarray(at, at + 65_536))
  writeFileSync(join(dir, 'payload.bin'), payload)
  const chunks: Uint8Array[] = []
  for await (const chunk of create({ gzip: true, portable: true, cwd: folder }, [
    'weight',
  ]) as AsyncIterable<Uint8Array>)
    chunks.push(chunk)
  return new Uint8Array(Buffer.concat(chunks))
}

export async function installFromLoopback(rounds: number): Promise<InstallFigures> {
  const core = await startTestCore({
    spores: {},
    config: 'sporangia: { allowLoopbackHttp: true }\n',
    logLevel: 'warn',
  })
  const sporangium = join(core.folder, 'sporangium')
  const bytes = await heavyArchive(join(core.folder, 'packing'))
  const publisher = await newPublisher()
  await writeSporangium(sporangium, {
    publisher,
    spores: { weight: { strains: { '1.0.0': { bytes } } } },
  })
  const server = await serveIndex(sporangium)
  const manage = sourceManageOutcomes(core.assembly.runtime)
  try {
    const added = await manage.addSource({ label: 'Bench', url: server.url, publisherKey: publisher.key })
    if (!added.ok) throw new Error(`the bench source was refused: ${added.refusal.key}`)
    Bun.gc(true)
    const baseRss = process.memoryUsage.rss()
    let peakRss = baseRss
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage.rss())
    }, 2)
    const times: number[] = []
    for (let round = 0; round < rounds; round++) {
      const started = performance.now()
      const installed = await manage.inoculate({ source: added.value.id, spore: 'weight' })
      times.push(performance.now() - started)
      peakRss = Math.max(peakRss, process.memoryUsage.rss())
      if (!installed.ok) throw new Error(`the bench install was refused: ${installed.refusal.key}`)
      const removed = await manage.uninstall('weight')
      if (!removed.ok) throw new Error(`the bench uninstall was refused: ${removed.refusal.key}`)
    }
    clearInterval(sampler)
    const sorted = [...times].sort((a, b) => a - b)
    return {
      rounds,
      archiveBytes: bytes.byteLength,
      meanMs: times.reduce((sum, time) => sum + time, 0) / times.length,
      p50Ms: sorted[Math.floor(sorted.length / 2)] ?? 0,
      maxMs: sorted.at(-1) ?? 0,
      baseRssMiB: baseRss / 1_048_576,
      peakRssMiB: peakRss / 1_048_576,
    }
  } finally {
    await server.stop()
    await core.stop()
  }
}
