import { startHostWorker } from './host.ts'
import { hostRuntime } from './runtime-build.ts'

/**
 * Host workers started before the spores that will take them are known. Most of a host's start is
 * its worker loading the host's runtime on a thread of its own: started ahead, that overlaps the
 * core reading manifests and catalogues (and a first start's probe) instead of following it.
 */
export class SpareWorkers {
  readonly #workers: Worker[] = []
  /** Counts releases: workers asked for before the last release are not started after it. */
  #releases = 0

  /** Starts `count` workers; whoever asked ends those no spore took (release). */
  async start(count: number): Promise<void> {
    if (count === 0) return
    const releases = this.#releases
    const entry = await hostRuntime()
    if (releases !== this.#releases) return
    for (let i = 0; i < count; i++) {
      const worker = startHostWorker(entry)
      // One that ended before a spore took it (it could not load its runtime) is not handed out.
      worker.addEventListener('close', () => {
        const at = this.#workers.indexOf(worker)
        if (at !== -1) this.#workers.splice(at, 1)
      })
      this.#workers.push(worker)
    }
  }

  /** A worker for a host: one started ahead if any is left, else one started now. */
  async take(): Promise<Worker> {
    return this.#workers.shift() ?? startHostWorker(await hostRuntime())
  }

  /** Ends the workers no spore took. */
  release(): void {
    this.#releases++
    for (const worker of this.#workers.splice(0)) worker.terminate()
  }

  /** How many wait for a spore. */
  get size(): number {
    return this.#workers.length
  }
}
