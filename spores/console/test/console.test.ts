import { describe, expect, it } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import type { HyphaContext, IncomingMessage, Logger } from '@mycelo/septum'
import { hyphaChecks, manualSchedule, memoryStorage } from '@mycelo/septum/conformance'
import { parse } from 'yaml'
import module, { type ConsoleConfig, createConsoleHypha } from '../src/index.ts'

const manifest = parse(readFileSync(join(import.meta.dir, '..', 'spore.yaml'), 'utf8'))

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quiet }

function contextFor(config: Partial<ConsoleConfig>, heard: IncomingMessage[]): HyphaContext<ConsoleConfig> {
  const parsed = module.configSchema.safeParse(config)
  if (!parsed.success) throw new Error(JSON.stringify(parsed.error.issues))
  return {
    config: parsed.data,
    logger: quiet,
    rhiza: <T>() => ({}) as T,
    has: () => false,
    storage: memoryStorage(),
    schedule: manualSchedule(),
    emit: async (message) => {
      heard.push(message)
    },
  }
}

/** A terminal made of real streams: what the test types goes in, what the hypha prints comes out. */
function terminal(inputIsTerminal: boolean) {
  const input = new PassThrough()
  const output = new PassThrough()
  let printed = ''
  output.setEncoding('utf8')
  output.on('data', (chunk: string) => {
    printed += chunk
  })
  const hypha = createConsoleHypha({ input, output, inputIsTerminal })
  return { input, hypha, printed: () => printed }
}

/** Resolves once `count` messages were heard (the reader is event-driven). */
async function heardAtLeast(heard: IncomingMessage[], count: number): Promise<void> {
  while (heard.length < count) await new Promise((resolve) => setImmediate(resolve))
}

describe('console hypha', () => {
  it('conforms to the Hypha contract', async () => {
    const failures = await hyphaChecks({
      name: 'console',
      manifest,
      module,
      config: { interactive: 'never', userId: 'alice' },
      invalidConfig: { interactive: 'sometimes' },
      context: () => contextFor({ interactive: 'never' }, []),
    })
    expect(failures).toEqual([])
  })

  it('emits each typed line as a message from the configured user, in one conversation per session', async () => {
    const heard: IncomingMessage[] = []
    const { input, hypha } = terminal(false)
    await hypha.connect(contextFor({ interactive: 'always', displayName: 'Alice' }, heard))
    await hypha.listen()
    input.write('/help\n\nhello there\r\n')
    await heardAtLeast(heard, 2)
    expect(heard.map((message) => message.text)).toEqual(['/help', 'hello there'])
    const [first, second] = heard
    expect(first).toMatchObject({
      channel: 'console',
      conversationId: hypha.sessionId,
      sender: { channel: 'console', externalId: 'owner', displayName: 'Alice' },
      attachments: [],
    })
    expect(first?.group).toBeUndefined()
    expect(first?.receivedAt).toBeInstanceOf(Date)
    expect(second?.conversationId).toBe(first?.conversationId)
    expect(second?.messageId).not.toBe(first?.messageId)
    await hypha.stop()
    input.write('after stop\n')
    await new Promise((resolve) => setImmediate(resolve))
    expect(heard).toHaveLength(2)
  })

  it('starts a new conversation at each connect', async () => {
    const { hypha } = terminal(false)
    await hypha.connect(contextFor({}, []))
    const first = hypha.sessionId
    await hypha.stop()
    await hypha.connect(contextFor({}, []))
    expect(hypha.sessionId).toBeString()
    expect(hypha.sessionId).not.toBe(first)
  })

  it('reads a terminal on auto, but not a pipe, and never when told not to', async () => {
    const cases = [
      { interactive: 'auto', isTerminal: true, reads: true },
      { interactive: 'auto', isTerminal: false, reads: false },
      { interactive: 'never', isTerminal: true, reads: false },
      { interactive: 'always', isTerminal: false, reads: true },
    ] as const
    for (const { interactive, isTerminal, reads } of cases) {
      const heard: IncomingMessage[] = []
      const { input, hypha } = terminal(isTerminal)
      await hypha.connect(contextFor({ interactive, userId: 'bob' }, heard))
      await hypha.listen()
      input.write('ping\n')
      await new Promise((resolve) => setImmediate(resolve))
      await new Promise((resolve) => setImmediate(resolve))
      expect({ interactive, isTerminal, heard: heard.map((message) => message.sender.externalId) }).toEqual({
        interactive,
        isTerminal,
        heard: reads ? ['bob'] : [],
      })
      await hypha.stop()
    }
  })

  it('prints what the bot sends: text, attachment names and reactions', async () => {
    const { hypha, printed } = terminal(false)
    await hypha.connect(contextFor({}, []))
    await hypha.send('any', { text: 'pong' })
    await hypha.send('any', {
      text: 'two files',
      attachments: [{ name: 'poster.jpg' }, { url: 'https://example.test/trailer.mp4' }],
    })
    await hypha.send('any', { reactTo: { messageId: 'm-7', emoji: '👍' } })
    await hypha.send('any', {})
    expect(printed()).toBe('pong\ntwo files\n📎 poster.jpg\n📎 https://example.test/trailer.mp4\n👍 ↩ m-7\n')
  })

  it('rejects a send once the terminal is gone, rather than claiming it printed', async () => {
    const output = new PassThrough()
    const broken = createConsoleHypha({ input: new PassThrough(), output, inputIsTerminal: false })
    await broken.connect(contextFor({}, []))
    output.destroy()
    await expect(broken.send('any', { text: 'lost' })).rejects.toThrow()
  })
})
