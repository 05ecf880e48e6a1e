import { afterEach, describe, expect, it } from 'bun:test'
import type { WebHypha } from '../../../spores/web/src/index.ts'
import { listPeople } from '../../store/people.ts'
import { attachIdentity, principalIdOf } from '../../store/principals.ts'
import { realSpore } from '../support/real-spores.ts'
import { type Signed, startWebBot, type WebBot } from './web.ts'

let bot: WebBot | undefined
afterEach(async () => {
  await bot?.stop()
  bot = undefined
})

const codeIn = (reply: string | undefined) => /: ([A-Z0-9]{10}) /.exec(reply ?? '')?.[1]

async function start() {
  bot = await startWebBot({
    spores: { web: realSpore('web') },
    roles: { chatter: ['admin.web', 'admin.whoami', 'web.routes'], helper: ['admin.web'] },
    grants: { alice: ['chatter'], carol: ['helper'] },
  })
  return bot
}

async function signIn(web: WebBot, who: string): Promise<Signed> {
  return web.client.signIn(codeIn((await web.core.ask('/web', { from: who }))[0])!)
}

/** The page's stream, read as the browser's EventSource would, one reply at a time. */
async function openStream(web: WebBot, session: Signed) {
  const response = await fetch(`${web.url}/spores/web/stream`, { headers: { cookie: session.cookie } })
  expect(response.status).toBe(200)
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  const events: { event: string; data: Record<string, unknown> }[] = []
  return {
    async next(event: string) {
      for (;;) {
        const index = events.findIndex((seen) => seen.event === event)
        if (index !== -1) return events.splice(index, 1)[0]!.data
        const { done, value } = await reader.read()
        if (done) throw new Error(`the stream ended before a ${event} event`)
        buffer += decoder.decode(value)
        let end = buffer.indexOf('\n\n')
        while (end !== -1) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const name = /^event: (.+)$/m.exec(block)?.[1]
          const data = /^data: (.+)$/m.exec(block)?.[1]
          if (name && data) events.push({ event: name, data: JSON.parse(data) })
          end = buffer.indexOf('\n\n')
        }
      }
    },
    close: () => reader.cancel(),
  }
}

describe('the web hypha through the real core', () => {
  it("authorises what the page sends exactly as the session's person, never as a stranger", async () => {
    const web = await start()
    const { core, client } = web
    const alice = await signIn(web, 'alice')
    const people = listPeople(core.store).length
    const stream = await openStream(web, alice)
    expect(await stream.next('ready')).toEqual({ conversationId: alice.principalId })

    const sent = await client.send('/spores/web/messages', { body: { text: '/whoami' }, session: alice })
    expect(sent.status).toBe(202)
    expect(typeof sent.body.messageId).toBe('string')
    const whoami = String((await stream.next('reply')).text)
    expect(whoami).toContain(`Id: ${alice.principalId}`)
    expect(whoami).toContain('chatter')

    // Her roles do not cover /lang: the bus refuses it as it would on any channel.
    await client.send('/spores/web/messages', { body: { text: '/lang fr' }, session: alice })
    expect(String((await stream.next('reply')).text)).toContain('not allowed')
    await stream.close()

    // The page's identity was made hers; nobody new was met.
    const runtime = core.assembly.runtime
    expect(principalIdOf(core.store, { channel: 'web', externalId: alice.principalId })).toBe(
      alice.principalId,
    )
    expect(listPeople(core.store)).toHaveLength(people)
    expect(
      runtime.directory
        .load(alice.principalId)
        ?.principal.identities.map((i) => i.channel)
        .sort(),
    ).toEqual(['chat', 'web'])
  })

  it('gives a reconnecting page the replies it missed', async () => {
    const web = await start()
    const alice = await signIn(web, 'alice')
    const sent = await web.client.send('/spores/web/messages', { body: { text: '/whoami' }, session: alice })
    expect(sent.status).toBe(202)
    // No stream is open when the reply comes: the next one opened starts with it.
    const hypha = web.core.germination.byName.get('web')!.instance as WebHypha
    while (hypha.book.since(alice.principalId, undefined).length === 0) await Bun.sleep(10)
    const stream = await openStream(web, alice)
    await stream.next('ready')
    expect(String((await stream.next('reply')).text)).toContain(alice.principalId)
    await stream.close()
  })

  it("refuses a person whose roles lack web.routes, and a bad body with the field's problem", async () => {
    const web = await start()
    const carol = await signIn(web, 'carol')
    const refused = await web.client.send('/spores/web/messages', { body: { text: 'hi' }, session: carol })
    expect(refused.status).toBe(403)
    expect(refused.body.error).toContain('web.routes')
    const alice = await signIn(web, 'alice')
    const empty = await web.client.send('/spores/web/messages', { body: { text: '' }, session: alice })
    expect(empty.status).toBe(400)
    expect(empty.body.error).toBe('The message is refused: text must be a non-empty string.')
  })

  it("refuses to speak for a person whose page identity is someone else's", async () => {
    const web = await start()
    const alice = await signIn(web, 'alice')
    const bob = web.core.assembly.runtime.directory.resolve({ channel: 'chat', externalId: 'bob' }).id
    attachIdentity(web.core.store, {
      principalId: bob,
      identity: { channel: 'web', externalId: alice.principalId },
    })
    const refused = await web.client.send('/spores/web/messages', {
      body: { text: '/whoami' },
      session: alice,
    })
    expect(refused.status).toBe(409)
    expect(refused.body.key).toBe('http.error.identityTaken')
  })
})
