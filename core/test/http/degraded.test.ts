import { afterEach, describe, expect, it } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { scratchFolder } from '../store/scratch.ts'
import { type CoreWith, startCoreWith } from '../support/boot-core.ts'
import { tokenOf, WebClient } from './web.ts'

const rhiza = (name: string, requires: string, settings = '') => ({
  'spore.yaml': `kind: rhiza\nname: ${name}\nseptum: "^1.0"\nrequires:\n  - rhiza: ${requires}\n`,
  'src/index.ts': `
import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'
export default {
  ${settings ? `configSchema: defineConfig(z.strictObject({ ${settings} })),` : ''}
  create: () => ({ api: {}, async start() {}, async stop() {},
    async health() { return { state: 'healthy', checkedAt: new Date() } } }),
}
`,
})

const CYCLE = {
  alpha: rhiza('alpha', 'beta', "greeting: z.string().default('hello').describe('What alpha says')"),
  beta: rhiza('beta', 'alpha'),
}

let core: CoreWith | undefined
const cleanups: (() => void)[] = []
afterEach(async () => {
  await core?.stop()
  core = undefined
  for (const cleanup of cleanups.splice(0)) cleanup()
})

describe('degraded: germination refused, the page still answers', () => {
  it('says why on /readyz, lists spores with the reason, and serves enable, disable and settings', async () => {
    core = await startCoreWith({ spores: CYCLE })
    const { running } = core
    expect(running.refused).toContain('alpha')
    const http = running.http!
    const client = new WebClient(http.url)
    expect((await client.send('/healthz')).status).toBe(200)
    const ready = await client.send('/readyz')
    expect(ready.status).toBe(503)
    expect(ready.body.ready).toBe(false)
    for (const name of ['alpha', 'beta']) expect(String(ready.body.refused)).toContain(name)

    // Signed in as the owner through the printed link, as on a fresh start.
    const owner = await client.signIn(tokenOf(http.loginLink!))
    const listed = await client.send('/api/v1/spores', { session: owner })
    expect(listed.status).toBe(200)
    const spores = listed.body.spores as { name: string; state: string; reason?: string; enabled: boolean }[]
    expect(spores.map((spore) => [spore.name, spore.state])).toEqual([
      ['alpha', 'dormant'],
      ['beta', 'dormant'],
    ])
    expect(spores[0]!.reason).toContain('germination was refused')

    const disabled = await client.send('/api/v1/spores/beta/disable', { method: 'POST', session: owner })
    expect(disabled.status).toBe(200)
    expect(running.plugins.installOf('beta')?.enabled).toBe(false)
    const enabled = await client.send('/api/v1/spores/beta/enable', { method: 'POST', session: owner })
    expect(enabled.status).toBe(200)
    expect(running.plugins.installOf('beta')?.enabled).toBe(true)

    const form = await client.send('/api/v1/spores/alpha/form', { session: owner })
    expect(form.status).toBe(200)
    const written = await client.send('/api/v1/spores/alpha/settings', {
      method: 'PATCH',
      body: { values: { greeting: 'bonjour' } },
      session: owner,
    })
    expect(written.status).toBe(200)
    expect(running.plugins.settingsOf('alpha')).toEqual({ greeting: 'bonjour' })
    const refused = await client.send('/api/v1/spores/alpha/settings', {
      method: 'PATCH',
      body: { values: { greeting: 42 } },
      session: owner,
    })
    expect(refused.status).toBeGreaterThanOrEqual(400)
    expect(refused.body.field).toBe('values.greeting')
  })

  it('runs normally once the operator fixed the cause and restarted', async () => {
    const scratch = scratchFolder('degraded')
    cleanups.push(scratch.remove)
    const first = await startCoreWith({ spores: CYCLE, folder: scratch.path })
    expect(first.running.refused).toBeDefined()
    await first.stop()
    // The fix an operator makes on disk: beta no longer closes the cycle.
    rmSync(join(scratch.path, 'spores', 'beta'), { recursive: true })
    core = await startCoreWith({ spores: { beta: rhiza('beta', 'mycelium') }, folder: scratch.path })
    expect(core.running.refused).toBeUndefined()
    const ready = await new WebClient(core.running.http!.url).send('/readyz')
    expect(ready.body.refused).toBeUndefined()
  })
})
