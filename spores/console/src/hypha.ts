import { createInterface, type Interface } from 'node:readline'
import type { Readable, Writable } from 'node:stream'
import type { Hypha, HyphaContext, IncomingMessage, OutgoingContent } from '@mycelo/septum'
import type { ConsoleConfig } from './config.ts'

/** The channel name messages carry; the terminal is one channel whatever the spore is called. */
export const CONSOLE_CHANNEL = 'console'

/** Where the terminal is: the process's own streams in the bot, any streams in a test. */
export interface ConsoleStreams {
  readonly input: Readable
  readonly output: Writable
  /** Whether `input` is a terminal, which is when `interactive: auto` reads it. */
  readonly inputIsTerminal: boolean
}

export interface ConsoleHypha extends Hypha<ConsoleConfig> {
  /** The conversation this run's typed lines belong to; undefined before connect(). */
  readonly sessionId: string | undefined
}

export function createConsoleHypha(streams: ConsoleStreams): ConsoleHypha {
  let ctx: HyphaContext<ConsoleConfig> | undefined
  let sessionId: string | undefined
  let reader: Interface | undefined
  let sequence = 0
  // Lines are handed over one at a time, in the order they were typed.
  let pending: Promise<void> = Promise.resolve()

  const messageOf = (text: string, config: ConsoleConfig, conversationId: string): IncomingMessage => {
    const messageId = `${conversationId}-${++sequence}`
    const sender =
      config.displayName === undefined
        ? { channel: CONSOLE_CHANNEL, externalId: config.userId }
        : { channel: CONSOLE_CHANNEL, externalId: config.userId, displayName: config.displayName }
    return {
      channel: CONSOLE_CHANNEL,
      conversationId,
      messageId,
      sender,
      text,
      attachments: [],
      raw: { line: text },
      receivedAt: new Date(),
    }
  }

  const hear = (line: string): void => {
    const context = ctx
    const conversationId = sessionId
    if (context === undefined || conversationId === undefined || line.trim() === '') return
    const message = messageOf(line, context.config, conversationId)
    pending = pending
      .then(() => context.emit(message))
      .catch((error: unknown) =>
        context.logger.warn('a typed line was not handled', { error: String(error) }),
      )
  }

  return {
    get sessionId() {
      return sessionId
    },

    async connect(context) {
      ctx = context
      // One conversation per run, so a restart starts a fresh one.
      sessionId = `session-${Date.now().toString(36)}-${crypto.randomUUID().slice(0, 8)}`
    },

    async listen() {
      const config = ctx?.config
      if (config === undefined || reader !== undefined) return
      const reads =
        config.interactive === 'always' || (config.interactive === 'auto' && streams.inputIsTerminal)
      if (!reads) return
      reader = createInterface({ input: streams.input, crlfDelay: Number.POSITIVE_INFINITY, terminal: false })
      reader.on('line', hear)
    },

    async stop() {
      reader?.close()
      reader = undefined
      await pending
    },

    send(_conversationId: string, content: OutgoingContent): Promise<void> {
      const text = render(content)
      if (text === '') return Promise.resolve()
      return new Promise((resolve, reject) => {
        streams.output.write(`${text}\n`, (error) => (error ? reject(error) : resolve()))
      })
    },
  }
}

/** The terminal shows what it can: the text, each attachment by name, a reaction as its own line. */
function render(content: OutgoingContent): string {
  const lines: string[] = []
  if (content.reactTo) lines.push(`${content.reactTo.emoji} ↩ ${content.reactTo.messageId}`)
  if (content.text !== undefined && content.text !== '') lines.push(content.text)
  for (const attachment of content.attachments ?? []) {
    lines.push(`📎 ${attachment.name ?? attachment.url ?? attachment.contentType ?? 'attachment'}`)
  }
  return lines.join('\n')
}
