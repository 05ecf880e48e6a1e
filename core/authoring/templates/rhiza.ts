import type { Files, Scaffolding } from './common.ts'

/** A rhiza over an HTTP service: its api and health, typed for consumers through an exported type. */
export function rhizaFiles({ name, typeName }: Scaffolding): Files {
  return {
    'spore.yaml': `kind: rhiza
name: ${name}
septum: "^1.1"
description: Reaches an HTTP service and tells other spores what it answers
`,
    'translations/en.yaml': `fault:
  unreachable: "The service at {url} cannot be reached."
  status: "The service answered with an error (HTTP {status})."
settings:
  url:
    label: Service address
    help: The HTTP address the rhiza asks, such as http://127.0.0.1:8080/status
  timeoutSeconds:
    label: Time limit (seconds)
    help: How long a call may take before it counts as unreachable
`,
    'translations/fr.yaml': `fault:
  unreachable: "Le service à {url} est injoignable."
  status: "Le service a répondu par une erreur (HTTP {status})."
settings:
  url:
    label: Adresse du service
    help: L’adresse HTTP que le rhiza interroge, par exemple http://127.0.0.1:8080/status
  timeoutSeconds:
    label: Délai (secondes)
    help: Le temps qu’un appel peut prendre avant d’être compté injoignable
`,
    'src/index.ts': `import { defineConfig, type Health, type RhizaModule, type TranslatableRef } from '@mycelo/septum'
import { z } from 'zod'

const settings = z.object({
  url: z.url().describe('settings.url'),
  timeoutSeconds: z.number().int().min(1).max(60).default(5).describe('settings.timeoutSeconds'),
})

export type ${typeName}Config = z.output<typeof settings>

/** What a consumer gets from \`ctx.rhiza<${typeName}Api>('${name}')\`: import this type, not the module. */
export interface ${typeName}Api {
  /** The service's answer as text; throws an error \`faultOf\` can word. */
  fetchText(): Promise<string>
  /** A failure of fetchText() as a catalogue key of this rhiza's domain, for the consumer to say. */
  faultOf(error: unknown): TranslatableRef | undefined
}

class ServiceFault extends Error {
  constructor(readonly ref: TranslatableRef) {
    super(ref.key)
  }
}

export default {
  configSchema: defineConfig(settings),
  create: () => {
    let config: ${typeName}Config | undefined
    const fetchText = async () => {
      if (config === undefined) throw new Error('${name} has not started')
      const { url, timeoutSeconds } = config
      let response: Response
      try {
        response = await fetch(url, { signal: AbortSignal.timeout(timeoutSeconds * 1000) })
      } catch {
        throw new ServiceFault({ domain: '${name}', key: 'fault.unreachable', params: { url } })
      }
      if (!response.ok)
        throw new ServiceFault({ domain: '${name}', key: 'fault.status', params: { status: response.status } })
      return response.text()
    }
    return {
      async start(ctx) {
        config = ctx.config
      },
      async stop() {
        config = undefined
      },
      async health(): Promise<Health> {
        try {
          const text = await fetchText()
          return { state: 'healthy', detail: text.slice(0, 80), checkedAt: new Date() }
        } catch (error) {
          const detail = error instanceof ServiceFault ? error.ref.key : String(error)
          return { state: 'unreachable', detail, checkedAt: new Date() }
        }
      },
      api: {
        fetchText,
        faultOf: (error: unknown) => (error instanceof ServiceFault ? error.ref : undefined),
      } satisfies ${typeName}Api,
    }
  },
} satisfies RhizaModule<${typeName}Api, ${typeName}Config>
`,
    [`test/${name}.test.ts`]: `// Runs under \`bun test\` and, compiled by tsc, under \`node --test\`: node:test and node:assert only.
import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { rhizaChecks } from '@mycelo/septum/conformance'
import { readSporeFiles, sporeFolder, type TestBot, testBot } from '@mycelo/septum/testing'
import module, { type ${typeName}Api } from '../src/index.js'

const files = readSporeFiles(sporeFolder(import.meta.url))
/** The service the rhiza reaches, on loopback: /ok answers, anything else is a 503. */
let service: Server
let base: string
let bot: TestBot
before(async () => {
  service = createServer((request, response) => {
    response.statusCode = request.url === '/ok' ? 200 : 503
    response.end(request.url === '/ok' ? 'all good' : 'down')
  })
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve))
  base = \`http://127.0.0.1:\${(service.address() as AddressInfo).port}\`
  bot = await testBot({ spore: { from: import.meta.url, module, settings: { url: \`\${base}/ok\` } } })
})
after(async () => {
  await bot.stop()
  service.close()
})

describe('${name}', () => {
  it('conforms to the Rhiza contract', async () => {
    const failures = await rhizaChecks({
      name: '${name}',
      manifest: files.manifest,
      module,
      config: { url: \`\${base}/ok\` },
      invalidConfig: { url: 'not a url' },
      context: () => bot.context(),
    })
    assert.deepEqual(failures, [])
  })

  it('answers through its api and reports health', async () => {
    assert.equal(await bot.rhiza<${typeName}Api>('${name}').fetchText(), 'all good')
    const health = await bot.health()
    assert.equal(health.state, 'healthy')
    assert.equal(health.detail, 'all good')
  })

  it('words a failing service as a key of its own domain', async () => {
    const failing = await testBot({ spore: { from: import.meta.url, module, settings: { url: \`\${base}/down\` } } })
    const api = failing.rhiza<${typeName}Api>('${name}')
    const error = await api.fetchText().catch((caught: unknown) => caught)
    assert.deepEqual(api.faultOf(error), { domain: '${name}', key: 'fault.status', params: { status: 503 } })
    assert.equal((await failing.health()).state, 'unreachable')
    await failing.stop()
  })
})
`,
  }
}
