import { afterEach, describe, expect, it } from 'bun:test'
import { createHmac } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { HOOKS_RHIZA } from './spore-routes-fixture.ts'
import { startWebBot, tokenOf, type WebBot } from './web.ts'

let bot: WebBot | undefined
afterEach(async () => {
  await bot?.stop()
  bot = undefined
})

const codeIn = (reply: string | undefined) => /: ([A-Z0-9]{10}) /.exec(reply ?? '')?.[1]
const sign = (body: string) => `sha256=${createHmac('sha256', 'shh').update(body).digest('hex')}`

async function start(config = '') {
  bot = await startWebBot({
    spores: { hooks: HOOKS_RHIZA },
    roles: { helper: ['admin.web'], reader: ['admin.web', 'hooks.routes'] },
    grants: { alice: ['helper'], bob: ['reader'] },
    config,
  })
  return bot
}

function seen(web: WebBot) {
  const spore = web.core.assembly.runtime.germination.byName.get('hooks')!
  return (spore.instance as { api: { seen: { hooks: unknown[]; aborted: number; items: unknown[] } } }).api
    .seen
}

describe('a public route (a webhook)', () => {
  it('answers without a session, Origin or CSRF token, and the handler verifies the signature', async () => {
    const web = await start()
    const body = JSON.stringify({ action: 'opened' })
    const response = await fetch(`${web.url}/spores/hooks/hook`, {
      method: 'POST',
      headers: { 'x-hub-signature-256': sign(body) },
      body,
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ took: true, principal: null })
    expect(seen(web).hooks).toEqual([{ action: 'opened' }])
    const tampered = await fetch(`${web.url}/spores/hooks/hook`, {
      method: 'POST',
      headers: { 'x-hub-signature-256': sign(body) },
      body: body.replace('opened', 'closed'),
    })
    expect(tampered.status).toBe(401)
  })

  it('refuses a body over its limit with 413 before the handler runs, declared or chunked', async () => {
    const web = await start()
    const big = JSON.stringify({ padding: 'x'.repeat(100) })
    const declared = await fetch(`${web.url}/spores/hooks/hook`, {
      method: 'POST',
      headers: { 'x-hub-signature-256': sign(big) },
      body: big,
    })
    expect(declared.status).toBe(413)
    expect(((await declared.json()) as { error: string }).error).toContain('at most 64 bytes')
    const chunks = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 4; i++) controller.enqueue(new TextEncoder().encode('y'.repeat(30)))
        controller.close()
      },
    })
    const chunked = await fetch(`${web.url}/spores/hooks/hook`, { method: 'POST', body: chunks })
    expect(chunked.status).toBe(413)
    expect(seen(web).hooks).toEqual([])
  })

  it('answers 504 when the handler deadline passes, and aborts the handler signal', async () => {
    const web = await start('timeouts: { handler: 50 }')
    const response = await fetch(`${web.url}/spores/hooks/slow`)
    expect(response.status).toBe(504)
    expect(((await response.json()) as { key: string }).key).toBe('http.error.routeTimeout')
    expect(seen(web).aborted).toBe(1)
    expect(web.core.logs().some((line) => line.msg === 'deadline passed' && line.spore === 'hooks')).toBe(
      true,
    )
  })

  it('answers a throw with a generic translated 500 and logs it with the spore name', async () => {
    const web = await start()
    const response = await fetch(`${web.url}/spores/hooks/broken`)
    expect(response.status).toBe(500)
    const body = (await response.json()) as { error: string; key: string }
    expect(body.key).toBe('http.error.routeFailed')
    expect(body.error).not.toContain('secret-detail')
    const logged = web.core.logs().find((line) => line.msg === 'a route handler failed')
    expect(logged?.spore).toBe('hooks')
    expect(String(logged?.error)).toContain('the hook broke')
    const odd = await fetch(`${web.url}/spores/hooks/odd`)
    expect(odd.status).toBe(500)
  })

  it('answers 404 for an undeclared path, a wrong method and an unknown spore', async () => {
    const web = await start()
    expect((await fetch(`${web.url}/spores/hooks/nothing`)).status).toBe(404)
    expect((await fetch(`${web.url}/spores/hooks/hook`)).status).toBe(404)
    expect((await fetch(`${web.url}/spores/nobody/hook`, { method: 'POST' })).status).toBe(404)
  })
})

describe('an operator route', () => {
  it('needs a session whose roles allow <spore>.routes, and gives the handler params and principal', async () => {
    const web = await start()
    const { core, client } = web
    expect((await client.send('/spores/hooks/items/7')).status).toBe(401)
    const alice = await client.signIn(codeIn((await core.ask('/web', { from: 'alice' }))[0])!)
    const refused = await client.send('/spores/hooks/items/7', { session: alice })
    expect(refused.status).toBe(403)
    expect(refused.body.error).toContain('hooks.routes')
    const bob = await client.signIn(codeIn((await core.ask('/web', { from: 'bob' }))[0])!)
    const answered = await client.send('/spores/hooks/items/7', { session: bob })
    expect(answered.status).toBe(200)
    expect(answered.body).toEqual({ id: '7', principal: bob.principalId })
    // The owner's `*` covers every spore's routes.
    const owner = await client.signIn(tokenOf(web.loginLink))
    expect((await client.send('/spores/hooks/items/8', { session: owner })).status).toBe(200)
  })

  it('answers a HEAD through the GET route declared at that path, with no body', async () => {
    const web = await start()
    const owner = await web.client.signIn(tokenOf(web.loginLink))
    const head = await web.client.send('/spores/hooks/items/9', { method: 'HEAD', session: owner })
    expect(head.status).toBe(200)
    expect(head.body).toEqual({ text: '' })
    expect(head.headers.get('content-type')).toContain('application/json')
    // A POST-only path has no GET to answer for it.
    const postOnly = await web.client.send('/spores/hooks/items', { method: 'HEAD', session: owner })
    expect(postOnly.status).toBe(404)
  })

  it('checks Origin and the CSRF token on a state-changing request', async () => {
    const web = await start()
    const owner = await web.client.signIn(tokenOf(web.loginLink))
    const noCsrf = await web.client.send('/spores/hooks/items', {
      body: { a: 1 },
      session: owner,
      csrf: null,
    })
    expect(noCsrf.status).toBe(403)
    expect(noCsrf.body.key).toBe('http.error.csrf')
    const elsewhere = await web.client.send('/spores/hooks/items', {
      body: { a: 1 },
      session: owner,
      origin: 'https://evil.example',
    })
    expect(elsewhere.status).toBe(403)
    const done = await web.client.send('/spores/hooks/items', { body: { a: 1 }, session: owner })
    expect(done.status).toBe(201)
    expect(seen(web).items).toEqual([{ a: 1 }])
  })
})

describe('routes follow the spore lifecycle', () => {
  it('answers 404 once the spore is disabled and again once it is enabled', async () => {
    const web = await start()
    const owner = await web.client.signIn(tokenOf(web.loginLink))
    expect((await web.client.send('/spores/hooks/items/1', { session: owner })).status).toBe(200)
    const disabled = await web.client.send('/api/v1/spores/hooks/disable', { method: 'POST', session: owner })
    expect(disabled.status).toBe(200)
    expect((await web.client.send('/spores/hooks/items/1', { session: owner })).status).toBe(404)
    expect((await fetch(`${web.url}/spores/hooks/slow`)).status).toBe(404)
    const enabled = await web.client.send('/api/v1/spores/hooks/enable', { method: 'POST', session: owner })
    expect(enabled.status).toBe(200)
    expect((await web.client.send('/spores/hooks/items/1', { session: owner })).status).toBe(200)
  })

  it('answers from the new code on the first request after a reload', async () => {
    const web = await start()
    const owner = await web.client.signIn(tokenOf(web.loginLink))
    const source = join(web.core.folder, 'spores', 'hooks', 'src', 'index.ts')
    writeFileSync(
      source,
      readFileSync(source, 'utf8').replace('id: ctx.params.id', "id: 'reloaded ' + ctx.params.id"),
    )
    const reloaded = await web.client.send('/api/v1/spores/hooks/reload', { method: 'POST', session: owner })
    expect(reloaded.status).toBe(200)
    const answered = await web.client.send('/spores/hooks/items/3', { session: owner })
    expect(answered.body.id).toBe('reloaded 3')
  })

  it('leaves a spore whose declared route code is missing dormant, with a reason', async () => {
    bot = await startWebBot({
      spores: {
        hooks: {
          'spore.yaml': HOOKS_RHIZA['spore.yaml'],
          'src/index.ts': `export default { create: () => ({ api: {}, async start() {}, async stop() {},
            async health() { return { state: 'healthy', checkedAt: new Date() } }, routes: { hook() {} } }) }`,
        },
      },
    })
    const spore = bot.core.germination.byName.get('hooks')!
    expect(spore.state).toBe('dormant')
    expect(spore.reason).toContain('a route handler "item" (for GET /items/:id)')
    expect((await fetch(`${bot.url}/spores/hooks/hook`, { method: 'POST' })).status).toBe(404)
  })
})
