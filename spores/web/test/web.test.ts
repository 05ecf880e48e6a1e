import { describe, expect, it } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { HyphaContext, IncomingMessage, Logger, RouteContext } from '@mycelo/septum'
import { hyphaChecks, manualSchedule, memoryStorage } from '@mycelo/septum/conformance'
import { parse } from 'yaml'
import module, { createWebHypha, KEPT_PER_CONVERSATION, ReplyBook, TEXT_LIMIT } from '../src/index.ts'

const manifest = parse(readFileSync(join(import.meta.dir, '..', 'spore.yaml'), 'utf8'))
const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quiet }

function contextHearing(heard: IncomingMessage[]): HyphaContext {
  return {
    config: {},
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

const alice = { id: 'p-alice', identities: [], roles: ['owner'], displayName: 'Alice' }
function routeContext(principal: RouteContext['principal'] = alice): RouteContext {
  return {
    params: {},
    logger: quiet,
    signal: new AbortController().signal,
    locale: 'en',
    // The key and its params, so a test reads which words were chosen.
    t: (key, params) => `${String(key)}${params ? JSON.stringify(params) : ''}`,
    ...(principal ? { principal } : {}),
  }
}

const post = (body: string) => new Request('http://127.0.0.1/spores/web/messages', { method: 'POST', body })

/** Reads an event stream's text until `until` holds, then stops reading. */
async function readUntil(response: Response, until: (text: string) => boolean): Promise<string> {
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  let text = ''
  while (!until(text)) {
    const { done, value } = await reader.read()
    if (done) break
    text += decoder.decode(value)
  }
  await reader.cancel()
  return text
}

describe('web hypha', () => {
  it('conforms to the Hypha contract, its routes included', async () => {
    const failures = await hyphaChecks({ name: 'web', manifest, module, context: () => contextHearing([]) })
    expect(failures).toEqual([])
  })

  it('emits what the page posts as a direct message from the signed-in person', async () => {
    const heard: IncomingMessage[] = []
    const hypha = createWebHypha()
    await hypha.connect(contextHearing(heard))
    const response = await hypha.routes.postMessage(post(JSON.stringify({ text: '/help' })), routeContext())
    expect(response.status).toBe(202)
    const { messageId } = (await response.json()) as { messageId: string }
    expect(heard).toHaveLength(1)
    const [message] = heard
    expect(message).toMatchObject({
      channel: 'web',
      conversationId: 'p-alice',
      messageId,
      sender: { channel: 'web', externalId: 'p-alice', displayName: 'Alice' },
      text: '/help',
    })
    expect(message?.group).toBeUndefined()
  })

  it('refuses a body that is not JSON, a missing or empty text, and one too long, naming what is wrong', async () => {
    const hypha = createWebHypha()
    await hypha.connect(contextHearing([]))
    const answers = await Promise.all(
      ['not json', '{}', '{"text":"  "}', JSON.stringify({ text: 'x'.repeat(TEXT_LIMIT + 1) })].map(
        async (body) => {
          const response = await hypha.routes.postMessage(post(body), routeContext())
          return [response.status, ((await response.json()) as { key: string }).key]
        },
      ),
    )
    expect(answers).toEqual([
      [400, 'error.notJson'],
      [400, 'error.noText'],
      [400, 'error.noText'],
      [400, 'error.tooLong'],
    ])
  })

  it('answers 503 once stopped', async () => {
    const hypha = createWebHypha()
    await hypha.connect(contextHearing([]))
    await hypha.stop()
    const response = await hypha.routes.postMessage(post('{"text":"hi"}'), routeContext())
    expect(response.status).toBe(503)
    const stream = await hypha.routes.stream(
      new Request('http://127.0.0.1/spores/web/stream'),
      routeContext(),
    )
    expect(stream.status).toBe(503)
    expect(await stream.json()).toEqual({ error: 'error.stopped', key: 'error.stopped' })
  })

  it('streams ready, then the kept replies, then new ones, to the conversation it belongs to', async () => {
    const hypha = createWebHypha()
    await hypha.connect(contextHearing([]))
    await hypha.send('p-alice', { text: 'kept' })
    await hypha.send('p-bob', { text: 'not for alice' })
    const response = await hypha.routes.stream(
      new Request('http://127.0.0.1/spores/web/stream'),
      routeContext(),
    )
    expect(response.headers.get('content-type')).toContain('text/event-stream')
    const later = setTimeout(() => hypha.send('p-alice', { text: 'fresh' }), 10)
    const text = await readUntil(response, (so) => so.includes('fresh'))
    clearTimeout(later)
    expect(text.startsWith('event: ready\n')).toBe(true)
    expect(text).toContain('event: reply\nid: 1\ndata: {"text":"kept","at":')
    expect(text).toContain('"text":"fresh"')
    expect(text).not.toContain('not for alice')
    expect(hypha.book.openStreams).toBe(0)
  })

  it('replays only what came after Last-Event-ID to a page that reconnects', async () => {
    const hypha = createWebHypha()
    await hypha.connect(contextHearing([]))
    for (const text of ['one', 'two', 'three']) await hypha.send('p-alice', { text })
    const request = new Request('http://127.0.0.1/spores/web/stream', { headers: { 'last-event-id': '2' } })
    const text = await readUntil(await hypha.routes.stream(request, routeContext()), (so) =>
      so.includes('three'),
    )
    expect(text).not.toContain('"two"')
    expect(text).toContain('"three"')
  })

  it('ends every open stream when stopped', async () => {
    const hypha = createWebHypha()
    await hypha.connect(contextHearing([]))
    const response = await hypha.routes.stream(new Request('http://127.0.0.1/'), routeContext())
    expect(hypha.book.openStreams).toBe(1)
    await hypha.stop()
    const text = await new Response(response.body).text()
    expect(text.startsWith('event: ready')).toBe(true)
    expect(hypha.book.openStreams).toBe(0)
  })
})

describe('reply book', () => {
  it('keeps the last replies of a conversation only', () => {
    const book = new ReplyBook()
    for (let i = 0; i < KEPT_PER_CONVERSATION + 5; i++) book.deliver('c', `r${i}`)
    const kept = book.since('c', undefined)
    expect(kept).toHaveLength(KEPT_PER_CONVERSATION)
    expect(kept[0]?.text).toBe('r5')
  })
})

describe('reply book bounds', () => {
  it('forgets the least recently used conversation past its bound', async () => {
    const { KEPT_CONVERSATIONS } = await import('../src/index.ts')
    const book = new ReplyBook()
    for (let i = 0; i <= KEPT_CONVERSATIONS; i++) book.deliver(`c${i}`, 'hi')
    expect(book.since('c0', undefined)).toEqual([])
    expect(book.since(`c${KEPT_CONVERSATIONS}`, undefined)).toHaveLength(1)
  })
})
