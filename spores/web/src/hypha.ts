import type {
  Hypha,
  HyphaContext,
  IncomingMessage,
  OutgoingContent,
  RouteContext,
  RouteHandler,
} from '@mycelo/septum'
import { ReplyBook } from './replies.ts'
import { replyIdOf, replyStream } from './stream.ts'

/** The channel name the page's messages carry: the spore's own name, as the core requires. */
export const WEB_CHANNEL = 'web'
/** The longest message the page may send: a long command, never a document. */
export const TEXT_LIMIT = 4_000

export interface WebHypha extends Hypha {
  readonly routes: { readonly postMessage: RouteHandler; readonly stream: RouteHandler }
  /** The replies kept and the streams open, for tests and the bench. */
  readonly book: ReplyBook
}

/**
 * The Chat screen's channel. Its routes are `operator` routes, so the core has made the identity
 * (web, principal id) the signed-in person's before either runs: what they type is authorised as
 * them. Each person has one conversation, keyed by their principal id.
 */
export function createWebHypha(): WebHypha {
  let ctx: HyphaContext | undefined
  let sequence = 0
  const book = new ReplyBook()
  const streams = new Set<() => void>()

  const refuse = (route: RouteContext, status: number, key: string, params?: Record<string, unknown>) =>
    Response.json({ error: route.t('error.badMessage', { problem: route.t(key, params) }), key }, { status })

  // Routes are looked up only while the spore is live, so this is the stop racing a request.
  const stopped = (route: RouteContext) =>
    Response.json({ error: route.t('error.stopped'), key: 'error.stopped' }, { status: 503 })

  const postMessage: RouteHandler = async (request, route) => {
    const principal = route.principal
    if (ctx === undefined || principal === undefined) {
      return stopped(route)
    }
    let body: unknown
    try {
      body = await request.json()
    } catch {
      return refuse(route, 400, 'error.notJson')
    }
    const text = (body as { text?: unknown } | null)?.text
    if (typeof text !== 'string' || text.trim() === '') return refuse(route, 400, 'error.noText')
    if (text.length > TEXT_LIMIT) return refuse(route, 400, 'error.tooLong', { limit: TEXT_LIMIT })
    const messageId = `web-${Date.now().toString(36)}-${++sequence}`
    const message: IncomingMessage = {
      channel: WEB_CHANNEL,
      conversationId: principal.id,
      messageId,
      sender: {
        channel: WEB_CHANNEL,
        externalId: principal.id,
        ...(shownName(principal) ? { displayName: shownName(principal) } : {}),
      },
      text,
      attachments: [],
      raw: null,
      receivedAt: new Date(),
    }
    const context = ctx
    // Accepted now, answered on the stream: a slow command must not hold the page's request open.
    context.emit(message).catch((error: unknown) => {
      context.logger.warn('a message from the page was not handled', { messageId, error: String(error) })
    })
    return Response.json({ messageId }, { status: 202 })
  }

  const stream: RouteHandler = (request, route) => {
    const principal = route.principal
    if (ctx === undefined || principal === undefined) {
      return stopped(route)
    }
    const after = replyIdOf(
      request.headers.get('last-event-id') ?? new URL(request.url).searchParams.get('after'),
    )
    return replyStream({
      book,
      conversationId: principal.id,
      afterId: after,
      track: (end) => {
        streams.add(end)
        return () => streams.delete(end)
      },
    })
  }

  return {
    book,
    routes: { postMessage, stream },
    async connect(context) {
      ctx = context
    },
    async listen() {},
    async stop() {
      ctx = undefined
      for (const end of [...streams]) end()
    },
    async send(conversationId: string, content: OutgoingContent) {
      const text = render(content)
      if (text !== '') book.deliver(conversationId, text)
    },
  }
}

/** The page shows text: a reaction as its emoji, each attachment by name. */
function render(content: OutgoingContent): string {
  const lines: string[] = []
  if (content.reactTo) lines.push(content.reactTo.emoji)
  if (content.text !== undefined && content.text !== '') lines.push(content.text)
  for (const attachment of content.attachments ?? []) {
    lines.push(`📎 ${attachment.name ?? attachment.url ?? attachment.contentType ?? 'attachment'}`)
  }
  return lines.join('\n')
}

/**
 * The name the person is shown by on the page's chat: theirs in the bot, else what another channel
 * calls them. Their id here is the bot's own id for them, which no person should read as a name.
 */
function shownName(principal: {
  readonly displayName?: string
  readonly identities: readonly {
    readonly channel: string
    readonly externalId: string
    readonly displayName?: string
  }[]
}): string | undefined {
  if (principal.displayName) return principal.displayName
  const elsewhere = principal.identities.find((identity) => identity.channel !== WEB_CHANNEL)
  return elsewhere?.displayName ?? elsewhere?.externalId
}
