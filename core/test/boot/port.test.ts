// Two bots, one port: the first owns it, the second says so and runs without the page, and never
// shares the port (Bun with development off would otherwise bind it too and split the requests).
import { afterAll, describe, expect, it } from 'bun:test'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { scratchFolder } from '../store/scratch.ts'
import { respondEnzyme } from './fixtures.ts'
import { startBoot } from './process.ts'

const scratch = scratchFolder('boot-port')
afterAll(() => scratch.remove())

function bot(name: string, port: number): string {
  const folder = join(scratch.path, name)
  const spores = join(folder, 'spores')
  mkdirSync(spores, { recursive: true })
  respondEnzyme(spores, 'echo')
  const config = join(folder, 'mycelo.yaml')
  writeFileSync(config, `spores: [spores]\ndatabase: data/mycelo.db\nhttp: { port: ${port} }\n`)
  return config
}

const reachable = (url: string) =>
  fetch(`${url}/healthz`).then(
    (answer) => answer.ok,
    () => false,
  )

describe('the HTTP port', () => {
  it('is owned by the first bot: a second one on it says so, runs without the page, and shares nothing', async () => {
    const first = startBoot(bot('first', 0))
    const printed = await first.waitFor('Mycelo is running')
    const url = /The admin page listens on (http:\/\/127\.0\.0\.1:\d+)/.exec(printed)?.[1]
    expect(url).toBeDefined()
    const port = Number(new URL(url!).port)

    const second = startBoot(bot('second', port))
    try {
      const report = await second.waitFor('Mycelo is running')
      expect(report).toContain(
        `The admin page cannot listen on 127.0.0.1:${port}: another program already listens there (another Mycelo?). The bot runs without the page.`,
      )
      expect(report).not.toContain('The admin page listens on')
      expect(report).toContain('Mycelo is running: 1 of 1 spore live.')
      expect(await reachable(url!)).toBe(true)
    } finally {
      first.child.kill('SIGTERM')
      expect(await first.exited()).toBe(0)
    }
    // With the first bot gone nothing answers there: the second never held the port beside it.
    expect(await reachable(url!)).toBe(false)
    expect(second.child.exitCode).toBeNull()
    second.child.kill('SIGTERM')
    expect(await second.exited()).toBe(0)
  })
})
