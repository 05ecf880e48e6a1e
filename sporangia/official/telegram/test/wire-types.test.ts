// The fake Telegram's payloads are Telegram's as @grammyjs/types publishes them: every answer the
// fake put on the wire in a run through the hypha (updates of each kind, sent messages, files,
// members, menus, webhooks, errors), and every update it posted to a webhook, compiled by tsc as
// `<payload> satisfies <its published type>`. A payload that drifts from the types fails the compile.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type { Update } from '@grammyjs/types'
import { Api } from 'grammy'
import { type TypedPayload, typecheckPayloads } from '../../kit/wire-types.ts'
import { type FakeTelegram, startFakeTelegram } from './fake/index.ts'
import { connectedRig, type Rig } from './harness.ts'

const IMPORTS = `import type { ApiMethods, ApiResponse, Update } from '@grammyjs/types'
type Answer<M extends keyof ApiMethods<unknown>> = ApiResponse<ReturnType<ApiMethods<unknown>[M]>>`

/** The methods the run below makes the fake answer; a scenario that stops reaching one fails. */
const METHODS = [
  'getMe',
  'getWebhookInfo',
  'getUpdates',
  'sendMessage',
  'sendPhoto',
  'sendDocument',
  'setMessageReaction',
  'getFile',
  'getChatAdministrators',
  'getChatMember',
  'setMyCommands',
  'setWebhook',
  'deleteWebhook',
]

/**
 * A reply quotes its message without that message's own reply, which the types mark as
 * `reply_to_message: undefined`: JSON leaves it out, so it is put back for the compile.
 */
function markQuotes(value: unknown, key?: string): unknown {
  if (Array.isArray(value)) return value.map((item) => markQuotes(item))
  if (value === null || typeof value !== 'object') return value
  const fields = Object.fromEntries(
    Object.entries(value).map(([name, field]) => [name, markQuotes(field, name)]),
  )
  return key === 'reply_to_message' ? { ...fields, reply_to_message: undefined } : fields
}

let fake: FakeTelegram
let rig: Rig
const webhookUpdates: unknown[] = []

beforeAll(async () => {
  fake = startFakeTelegram()
  rig = await connectedRig({
    fake,
    mycelium: {
      findByIdentity: async () => ({ id: 'p1' }),
      available: async () => [{ name: 'help', description: 'List the commands' }],
    },
    // Answers in the group quote the message they answer.
    answer: async (message) => {
      if (message.group !== undefined) await rig.hypha.send(message.conversationId, { text: 'noted' })
    },
  })
  const { world } = fake
  const heard = (id: number) => rig.emitted.waitFor((m) => m.messageId === String(id))
  await heard(fake.say({ from: world.alice, text: '/help' }).message_id)
  const inGroup = fake.say({ from: world.bob, text: 'hello all', inGroup: true })
  await heard(inGroup.message_id)
  await fake.api.sent.waitFor((m) => m.reply_to_message?.message_id === inGroup.message_id)
  await heard(fake.say({ from: world.bob, text: 'in a topic', topic: 7 }).message_id)
  const typo = fake.say({ from: world.alice, text: '/hepl' })
  await heard(typo.message_id)
  fake.edit(typo, '/help')
  await rig.emitted.waitFor((m) => m.messageId === String(typo.message_id) && m.text === '/help')
  await heard(fake.sendPhoto(world.alice, new Uint8Array([0xff, 0xd8, 0xff, 1, 2]), 'a photo').message_id)
  const stored = world.storeFile(new TextEncoder().encode('notes'), 'txt')
  const doc = fake.say({
    from: world.alice,
    extra: { document: { ...stored, file_name: 'notes.txt', mime_type: 'text/plain' }, caption: 'notes' },
  })
  await heard(doc.message_id)
  fake.say({ from: world.alice, inGroup: true, extra: { new_chat_members: [world.carol.user] } })
  fake.push({
    chat_member: {
      chat: world.group,
      from: world.alice.user,
      date: Math.floor(Date.now() / 1000),
      old_chat_member: { status: 'member', user: world.carol.user },
      new_chat_member: { status: 'left', user: world.carol.user },
    },
  })
  await heard(fake.say({ from: world.alice, text: 'marker' }).message_id)
  // The menu is set once the first private message is handled.
  await fake.api.calls.waitFor((call) => call.method === 'setMyCommands')

  const alice = String(world.alice.chat.id)
  await rig.hypha.send(alice, {
    text: 'files',
    attachments: [
      { name: 'photo.jpg', contentType: 'image/jpeg', data: new Uint8Array([0xff, 0xd8, 0xff, 0]) },
      { name: 'report.pdf', contentType: 'application/pdf', data: new TextEncoder().encode('%PDF') },
    ],
  })
  await rig.hypha.send(alice, { reactTo: { messageId: String(typo.message_id), emoji: '👍' } })
  await rig.hypha.listGroupMembers(String(world.group.id))
  fake.api.inject('sendMessage', {
    error_code: 429,
    description: 'Too Many Requests: retry after 1',
    parameters: { retry_after: 1 },
  })
  await rig.hypha.send(alice, { text: 'after the limit' })
  world.blocked.add(world.bob.user.id)
  await rig.hypha
    .send(String(world.bob.chat.id), { text: 'to someone who blocked the bot' })
    .catch(() => undefined)
  await rig.stop()

  // A webhook: set, posted an update, asked about, removed.
  const hook = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: async (request) => {
      webhookUpdates.push(await request.json())
      return new Response(null, { status: 200 })
    },
  })
  try {
    const api = new Api(fake.token, { apiRoot: fake.apiRoot })
    await api.setWebhook(`http://127.0.0.1:${hook.port}/hook`, { secret_token: 'secret' })
    fake.say({ from: world.carol, text: 'by webhook' })
    await fake.api.deliveries.waitFor(() => true)
    await api.getWebhookInfo()
    await api.deleteWebhook()
  } finally {
    await hook.stop(true)
  }
}, 60_000)

afterAll(() => fake.stop())

function payloads(): TypedPayload[] {
  const answers = fake.api.calls.entries.map(
    (call, index): TypedPayload => ({
      type: `Answer<'${call.method}'>`,
      value: markQuotes(call.body),
      from: `answer ${index} to ${call.method} (${call.status})`,
    }),
  )
  const posted = webhookUpdates.map(
    (update, index): TypedPayload => ({
      type: 'Update',
      value: markQuotes(update),
      from: `webhook post ${index}`,
    }),
  )
  return [...answers, ...posted]
}

describe('the fake Telegram’s payloads', () => {
  it('reach every method the hypha uses, with updates of each kind and errors among them', () => {
    const methods = new Set(fake.api.calls.entries.map((call) => call.method))
    for (const method of METHODS) expect(methods).toContain(method)
    const updates = fake.api.calls.entries
      .filter((call) => call.method === 'getUpdates' && call.body.ok)
      .flatMap((call) => (call.body.ok ? (call.body.result as Update[]) : []))
    const kinds = new Set(
      updates.flatMap((update) => Object.keys(update).filter((key) => key !== 'update_id')),
    )
    expect([...kinds].sort()).toEqual(['chat_member', 'edited_message', 'message'])
    const statuses = new Set(fake.api.calls.entries.map((call) => call.status))
    for (const status of [200, 403, 429]) expect(statuses).toContain(status)
    expect(webhookUpdates).toHaveLength(1)
  })

  it('satisfy @grammyjs/types, each as the answer of its method or as an update', () => {
    const checked = typecheckPayloads(IMPORTS, payloads())
    expect(checked.output).toBe('')
    expect(checked.ok).toBe(true)
    expect(checked.checked).toBeGreaterThan(25)
  }, 60_000)

  it('would fail on a payload that drifts: a field renamed, a type changed, a field Telegram does not send', () => {
    const sent = fake.api.calls.entries.find((call) => call.method === 'sendMessage' && call.body.ok)
    const message = sent?.body.ok ? (sent.body.result as Record<string, unknown>) : {}
    const { chat, ...withoutChat } = message
    const drifted: TypedPayload[] = [
      {
        type: "Answer<'sendMessage'>",
        value: { ok: true, result: { ...withoutChat, chat_info: chat } },
        from: 'renamed',
      },
      {
        type: "Answer<'sendMessage'>",
        value: { ok: true, result: { ...message, date: 'today' } },
        from: 'retyped',
      },
      {
        type: "Answer<'getMe'>",
        value: { ok: true, result: { ...fake.world.bot, nickname: 'x' } },
        from: 'unknown',
      },
    ]
    const checked = typecheckPayloads(IMPORTS, drifted)
    expect(checked.ok).toBe(false)
    for (const from of ['renamed', 'retyped', 'unknown']) expect(checked.output).toContain(`[${from}]`)
  }, 60_000)
})
