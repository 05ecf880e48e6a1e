import type { Files, Scaffolding } from './common.ts'

/** A hypha over loopback HTTP: POST /messages is heard, what the bot sends waits at GET /messages/<id>. */
export function hyphaFiles({ name, typeName }: Scaffolding): Files {
  return {
    'spore.yaml': `kind: hypha
name: ${name}
septum: "^1.1"
description: A channel over HTTP on this machine, for scripts and tests
capabilities: []
`,
    'translations/en.yaml': `settings:
  port:
    label: Port
    help: The port on 127.0.0.1 the channel listens on
`,
    'translations/fr.yaml': `settings:
  port:
    label: Port
    help: Le port de 127.0.0.1 sur lequel le canal écoute
`,
    'src/index.ts': `import { createServer, type IncomingMessage as Request, type Server } from 'node:http'
import { defineConfig, type HyphaContext, type HyphaModule, type OutgoingContent } from '@mycelo/septum'
import { z } from 'zod'

const settings = z.object({
  port: z.number().int().min(1).max(65535).describe('settings.port'),
})

export type ${typeName}Config = z.output<typeof settings>

/** What a client posts to /messages. */
const heard = z.object({ conversationId: z.string().min(1), sender: z.string().min(1), text: z.string() })

const MAX_BODY = 64 * 1024

async function bodyOf(request: Request): Promise<unknown> {
  let text = ''
  for await (const chunk of request) {
    text += chunk
    if (text.length > MAX_BODY) throw new Error('body too large')
  }
  return JSON.parse(text)
}

export default {
  configSchema: defineConfig(settings),
  create: () => {
    let ctx: HyphaContext<${typeName}Config> | undefined
    let server: Server | undefined
    let received = 0
    /** What the bot sent, per conversation, until a client reads it. */
    const outbox = new Map<string, OutgoingContent[]>()
    return {
      async connect(context) {
        ctx = context
      },
      async listen() {
        const context = ctx!
        server = createServer(async (request, response) => {
          const reading = request.url?.match(/^\\/messages\\/(.+)$/)
          if (request.method === 'GET' && reading) {
            const id = decodeURIComponent(reading[1]!)
            response.setHeader('content-type', 'application/json')
            response.end(JSON.stringify(outbox.get(id) ?? []))
            outbox.delete(id)
            return
          }
          if (request.method !== 'POST' || request.url !== '/messages') {
            response.statusCode = 404
            response.end()
            return
          }
          const parsed = heard.safeParse(await bodyOf(request).catch(() => undefined))
          if (!parsed.success) {
            response.statusCode = 400
            response.end()
            return
          }
          const { conversationId, sender, text } = parsed.data
          await context.emit({
            channel: '${name}',
            conversationId,
            messageId: String(++received),
            sender: { channel: '${name}', externalId: sender },
            text,
            attachments: [],
            raw: parsed.data,
            receivedAt: new Date(),
          })
          response.statusCode = 202
          response.end()
        })
        await new Promise<void>((resolve, reject) => {
          server!.once('error', reject)
          server!.listen(context.config.port, '127.0.0.1', resolve)
        })
      },
      async stop() {
        await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())))
        server = undefined
      },
      async send(conversationId, content) {
        outbox.set(conversationId, [...(outbox.get(conversationId) ?? []), content])
      },
    }
  },
} satisfies HyphaModule<${typeName}Config>
`,
    [`test/${name}.test.ts`]: `// Runs under \`bun test\` and, compiled by tsc, under \`node --test\`: node:test and node:assert only.
import assert from 'node:assert/strict'
import { createServer } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { hyphaChecks } from '@mycelo/septum/conformance'
import { readSporeFiles, sporeFolder, type TestBot, testBot } from '@mycelo/septum/testing'
import module from '../src/index.js'

const files = readSporeFiles(sporeFolder(import.meta.url))

/** A port nothing listens on, for this test's own channel. */
function freePort(): Promise<number> {
  const probe = createServer()
  return new Promise((resolve) =>
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    }),
  )
}

let bot: TestBot
let base: string
before(async () => {
  const port = await freePort()
  base = \`http://127.0.0.1:\${port}\`
  bot = await testBot({ spore: { from: import.meta.url, module, settings: { port } } })
})
after(() => bot.stop())

describe('${name}', () => {
  it('conforms to the Hypha contract', async () => {
    const failures = await hyphaChecks({
      name: '${name}',
      manifest: files.manifest,
      module,
      config: { port: 8080 },
      invalidConfig: { port: 0 },
      context: () => ({ ...bot.hyphaContext(), config: { port: 0 } }),
    })
    assert.deepEqual(failures, [])
  })

  it('hands the bot what it hears, and keeps what the bot sends for the client', async () => {
    const posted = await fetch(\`\${base}/messages\`, {
      method: 'POST',
      body: JSON.stringify({ conversationId: 'c1', sender: 'ada', text: '/hello' }),
    })
    assert.equal(posted.status, 202)
    assert.deepEqual(
      bot.heard.map((message) => [message.channel, message.conversationId, message.sender.externalId, message.text]),
      [['${name}', 'c1', 'ada', '/hello']],
    )
    await bot.send('c1', { text: 'Hello, Ada!' })
    assert.deepEqual(await (await fetch(\`\${base}/messages/c1\`)).json(), [{ text: 'Hello, Ada!' }])
    assert.equal((await fetch(\`\${base}/messages\`, { method: 'POST', body: '{}' })).status, 400)
  })
})
`,
  }
}
