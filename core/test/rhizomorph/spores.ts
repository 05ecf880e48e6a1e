// Real spores for the message-path tests, written to disk by the test core.

export const FILMS = {
  'spore.yaml': `kind: enzyme
name: films
septum: "^1.0"
commands:
  - name: add
    description: command.add.description
    code: addMovie
    args:
      - name: title
        description: arg.title.description
        required: true
      - name: year
        description: arg.year.description
  - name: ping
    description: command.ping.description
    respond: ping.text
  - name: bare
    description: command.bare.description
    respond: pong
  - name: greet
    description: command.greet.description
    respond: greet.text
  - name: thread
    description: command.thread.description
    respond: ping.text
    capabilities: [threads]
  - name: react
    description: command.react.description
    respond: ping.text
    capabilities: [reactions]
  - name: boom
    description: command.boom.description
    code: explode
  - name: whoami
    description: command.whoami.description
    code: whoami
  - name: tell
    description: command.tell.description
    code: tell
    args:
      - name: conversation
        description: arg.conversation.description
      - name: text
        description: arg.text.description
`,
  'src/index.ts': `
export default {
  create: () => ({
    handlers: {
      async addMovie(invocation, ctx) {
        ctx.logger.info('add', { args: invocation.args, rest: invocation.rest })
        const title = invocation.args.title
        if (!title) return ctx.reply({ text: ctx.t('add.usage') })
        await ctx.reply({ text: ctx.t('add.queued', { title, year: invocation.args.year ?? '?' }) })
      },
      async explode() {
        throw new Error('the projector caught fire')
      },
      async whoami(invocation, ctx) {
        await ctx.reply({
          text: JSON.stringify({
            principal: ctx.principal,
            locale: ctx.locale,
            capabilities: ctx.capabilities.list(),
            command: invocation.command,
            keys: Object.keys(ctx).sort(),
          }),
        })
      },
      async tell(invocation, ctx) {
        const target = { channel: 'chat', conversationId: invocation.args.conversation }
        const locale = await ctx.localeFor(target)
        await ctx.push(target, { text: ctx.t('told', { text: invocation.args.text }, locale) })
      },
    },
  }),
}
`,
  'translations/en.yaml': `command:
  add: { description: Queue a film }
  ping: { description: Ping }
  bare: { description: Answers a literal }
  greet: { description: Greets }
  thread: { description: Needs threads }
  react: { description: Needs reactions }
  boom: { description: Always fails }
  whoami: { description: Who am I }
  tell: { description: Tell another conversation }
arg:
  title: { description: Film title }
  year: { description: Release year }
  conversation: { description: Where }
  text: { description: What }
ping:
  text: pong in English
greet:
  text: "Hello {name}"
add:
  usage: "Usage: /add '<title>' [year]"
  queued: "Queued {title} ({year})"
told: "Told: {text}"
only:
  english: only in English
`,
  'translations/fr.yaml': `ping:
  text: pong en français
add:
  usage: "Usage : /add '<titre>' [année]"
  queued: "{title} ({year}) est en file"
told: "Dit : {text}"
`,
}

export const OTHER = {
  'spore.yaml': `kind: enzyme
name: other
septum: "^1.0"
commands:
  - name: add
    description: add.description
    respond: other.added
`,
}

/** An inhibitor whose verdicts are steered by the message text, and which may be enforcing. */
export function inhibitor(name: string, options: { enforcing?: boolean; startThrows?: boolean } = {}) {
  return {
    'spore.yaml': `kind: inhibitor\nname: ${name}\nseptum: "^1.0"\nenforcing: ${options.enforcing ?? false}\n`,
    'src/index.ts': `
export default {
  create: () => ({
    async start() { ${options.startThrows ? "throw new Error('no allow-list file')" : ''} },
    inspect(message) {
      if (message.sender.externalId === 'banned') return { allow: false, reason: '${name} bans this sender' }
      if (message.text.includes('explode-${name}')) throw new Error('${name} exploded')
      return { allow: true }
    },
  }),
}
`,
  }
}
