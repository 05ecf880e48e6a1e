// A rhiza with septum 1.1 routes, written to disk for the route tests: a signed webhook, an
// operator page, a slow one, a failing one and one that answers no Response.
export const HOOKS_RHIZA = {
  'spore.yaml': `kind: rhiza
name: hooks
septum: "^1.0"
routes:
  - { method: POST, path: /hook, access: public, code: hook, bodyLimit: 64 }
  - { method: GET, path: /items/:id, access: operator, code: item }
  - { method: POST, path: /items, access: operator, code: addItem }
  - { method: GET, path: /slow, access: public, code: slow }
  - { method: GET, path: /broken, access: public, code: broken }
  - { method: GET, path: /odd, access: public, code: odd }
`,
  'src/index.ts': `
import { verifySignature } from '@mycelo/septum'
export const seen = { hooks: [], aborted: 0, items: [] }
export default {
  create: () => ({
    api: { seen },
    async start() {},
    async stop() {},
    async health() { return { state: 'healthy', checkedAt: new Date() } },
    routes: {
      async hook(request, ctx) {
        const body = await request.text()
        const header = request.headers.get('x-hub-signature-256')
        if (!verifySignature({ secret: 'shh', body, header, scheme: 'github' })) {
          return new Response('bad signature', { status: 401 })
        }
        seen.hooks.push(JSON.parse(body))
        return Response.json({ took: true, principal: ctx.principal ?? null })
      },
      item(request, ctx) {
        return Response.json({ id: ctx.params.id, principal: ctx.principal.id })
      },
      async addItem(request, ctx) {
        seen.items.push(await request.json())
        return new Response(null, { status: 201 })
      },
      slow(request, ctx) {
        return new Promise((resolve) => {
          ctx.signal.addEventListener('abort', () => { seen.aborted++; resolve(new Response('late')) })
        })
      },
      broken() { throw new Error('the hook broke: secret-detail') },
      odd() { return 'not a response' },
    },
  }),
}
`,
}
