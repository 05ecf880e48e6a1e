import type { IncomingMessage, PushTarget } from '@mycelo/septum'
import type { CoreRuntime } from '../../rhizomorph/runtime.ts'
import { principalIdOf } from '../../store/index.ts'
import type { ConfirmRequest } from '../access.ts'

export interface ChatQuestion {
  /** The only person whose answer counts: the one the key acts for. */
  readonly principalId: string
  readonly target: PushTarget
  readonly request: ConfirmRequest
  /** The key's label, so the person knows which of their agents asks. */
  readonly label: string
  /** How long the person has; no answer by then declines. */
  readonly timeoutMs: number
  readonly signal?: AbortSignal
}

interface Pending {
  readonly principalId: string
  readonly yes: ReadonlySet<string>
  readonly no: ReadonlySet<string>
  decide(answer: boolean): void
}

/**
 * Confirmations asked over chat: the bot writes the question in the key's conversation and the
 * first yes or no its person writes there decides. One question per conversation at a time, so an
 * answer can never be taken for another question's.
 */
export class ChatConfirmations {
  readonly #runtime: CoreRuntime
  readonly #pending = new Map<string, Pending>()
  readonly #dispose: () => void

  constructor(runtime: CoreRuntime) {
    this.#runtime = runtime
    this.#dispose = runtime.listeners.add('mycelium', (message) => this.#heard(message))
  }

  async ask(question: ChatQuestion): Promise<boolean> {
    const where = keyOf(question.target)
    if (this.#pending.has(where) || question.signal?.aborted) return false
    const locale =
      this.#runtime.directory.load(question.principalId)?.locale ?? this.#runtime.config.defaultLocale
    const say = (key: string, params?: Record<string, unknown>) =>
      this.#runtime.translator.render({ domain: 'core', key, ...(params ? { params } : {}) }, locale)
    const answered = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => decide(false), question.timeoutMs)
      const onAbort = () => decide(false)
      const decide = (answer: boolean) => {
        clearTimeout(timer)
        question.signal?.removeEventListener('abort', onAbort)
        this.#pending.delete(where)
        resolve(answer)
      }
      question.signal?.addEventListener('abort', onAbort, { once: true })
      this.#pending.set(where, {
        principalId: question.principalId,
        yes: words(say('agent.yesWords')),
        no: words(say('agent.noWords')),
        decide,
      })
    })
    const { module, operation, access } = question.request
    const text = say('agent.confirmChat', { label: question.label, module, operation, access })
    try {
      await this.#runtime.hyphae.send(question.target, { text })
    } catch (error) {
      this.#runtime.logger.warn('an agent confirmation could not be asked in chat', { error: String(error) })
      this.#pending.get(where)?.decide(false)
    }
    return answered
  }

  close(): void {
    this.#dispose()
    for (const pending of [...this.#pending.values()]) pending.decide(false)
  }

  #heard(message: IncomingMessage): void {
    const pending = this.#pending.get(
      keyOf({ channel: message.channel, conversationId: message.conversationId }),
    )
    if (pending === undefined) return
    const sender = principalIdOf(this.#runtime.store, message.sender)
    // Anyone else in the conversation, and anything but a yes or a no, leaves the question open.
    if (sender !== pending.principalId) return
    const word = message.text.trim().toLowerCase()
    if (pending.yes.has(word)) pending.decide(true)
    else if (pending.no.has(word)) pending.decide(false)
  }
}

function keyOf(target: PushTarget): string {
  return `${target.channel}\u0000${target.conversationId}`
}

function words(list: string): ReadonlySet<string> {
  return new Set(list.split(/\s+/).filter((word) => word !== ''))
}
