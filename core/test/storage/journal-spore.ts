// A septum 1.1 spore for the end-to-end tests: it keeps notes in storage (migrated twice), sends a
// digest every morning in Paris, and reminds people at times they ask for.

export const JOURNAL_MANIFEST = `kind: enzyme
name: journal
septum: "^1.1"
commands:
  - name: note
    description: journal.note
    code: note
  - name: remind
    description: journal.remind
    code: remind
  - name: big
    description: journal.big
    code: big
`

/** The module, with `digest` naming its digest lines so a reloaded version can be told apart. */
export const journalModule = (digest = 'digest') => `
export default {
  migrations: [
    { version: 1, up(tx) { tx.set('meta:created', 'v1') } },
    { version: 2, description: 'notes become objects', up(tx) {
      for (const entry of tx.list('note:')) {
        if (typeof entry.value === 'string') tx.set(entry.key, { text: entry.value })
      }
      tx.set('meta:shape', 'object')
    } },
  ],
  create: () => {
    let ctx
    return {
      async start(c) {
        ctx = c
        await c.schedule.cron('0 9 * * *', { id: 'digest', timeZone: 'Europe/Paris', missed: 'run-once' }, async (run) => {
          const notes = await ctx.storage.list('note:')
          const tag = run.missed ? ' (missed)' : ''
          await ctx.push({ channel: 'chat', conversationId: 'dm-owner' }, { text: '${digest}' + tag + ': ' + notes.length })
        })
        c.schedule.handle('remind:', async (run) => {
          const tag = run.missed ? ' (missed)' : ''
          await ctx.push({ channel: 'chat', conversationId: run.data.to }, { text: 'reminder' + tag + ': ' + run.data.text })
        })
      },
      handlers: {
        async note(invocation, c) {
          const count = (await c.storage.get('count')) ?? 0
          await c.storage.transaction((tx) => {
            tx.set('count', count + 1)
            tx.set('note:' + (count + 1), { text: invocation.rest })
          })
          await c.reply({ text: 'noted ' + (count + 1) })
        },
        async remind(invocation, c) {
          const [at, ...words] = invocation.rest.split(' ')
          const entry = await c.schedule.once(at, {
            id: 'remind:' + invocation.message.sender.externalId + ':' + at,
            missed: 'run-once',
            data: { to: invocation.message.conversationId, text: words.join(' ') },
          }, async () => {})
          await c.reply({ text: 'reminding at ' + entry.nextAt })
        },
        async big(invocation, c) {
          try {
            await c.storage.set('big', 'x'.repeat(Number(invocation.rest)))
            await c.reply({ text: 'stored' })
          } catch (error) {
            await c.reply({ text: error.name + ': ' + error.message })
          }
        },
      },
    }
  },
}
`

export const JOURNAL = { 'spore.yaml': JOURNAL_MANIFEST, 'src/index.ts': journalModule() }
