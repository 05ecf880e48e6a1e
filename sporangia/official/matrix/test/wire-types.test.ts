// The fake homeserver's payloads are the client-server API's as matrix-js-sdk publishes its types:
// every JSON answer it put on the wire in a run through the hypha (whoami, /sync with joins,
// invites and leaves, sends, joins, members, uploads, M_FORBIDDEN and M_LIMIT_EXCEEDED), and the
// content of every event it served, compiled by tsc as `<payload> satisfies <its published type>`.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type { ISyncResponse } from 'matrix-js-sdk'
import { type TypedPayload, typecheckPayloads } from '../../kit/wire-types.ts'
import type { RecordedCall } from './fake/index.ts'
import { connectedRig, type Rig } from './harness.ts'

const IMPORTS = `import type { IEventRelation, IFilterResponse, IPushRules, IServerVersions, ISendEventResponse, ISyncResponse, MatrixClient, MatrixError, StateEvents, TimelineEvents, UploadResponse } from 'matrix-js-sdk'
type Answered<M extends keyof MatrixClient> = Awaited<ReturnType<Extract<MatrixClient[M], (...args: never[]) => unknown>>>
type ErrorBody = MatrixError['data'] & { errcode: string; error: string }
/** A published type as JSON carries it: the SDK's enums (MsgType, RelationType) as their strings. */
/** The SDK's message type knows no thread's is_falling_back, which the spec and its own IEventRelation have. */
type InThread<T> = T extends unknown ? Omit<T, 'm.relates_to'> & { 'm.relates_to': IEventRelation & { rel_type: 'm.thread' } } : never
type Wire<T> = T extends string ? \`\${T}\` : T extends readonly (infer E)[] ? Wire<E>[] : T extends object ? { [K in keyof T]: Wire<T[K]> } : T`

/** The published type of what each endpoint answers, as matrix-js-sdk reads it. */
const ANSWERS: readonly (readonly [RegExp, string])[] = [
  [/\/versions$/, 'IServerVersions'],
  [/\/account\/whoami$/, "Answered<'whoami'>"],
  [/\/sync$/, 'ISyncResponse'],
  [/\/pushrules\/$/, 'IPushRules'],
  [/\/user\/[^/]+\/filter$/, 'IFilterResponse'],
  [/\/join\/[^/]+$/, '{ room_id: string }'],
  [/\/rooms\/[^/]+\/leave$/, 'Record<string, never>'],
  [/\/rooms\/[^/]+\/send\/[^/]+\/[^/]+$/, 'ISendEventResponse'],
  [/\/rooms\/[^/]+\/joined_members$/, "Answered<'getJoinedRoomMembers'>"],
  [/\/media\/v3\/upload$/, 'UploadResponse'],
]

/** The endpoints the run below reaches; a scenario that stops reaching one fails. */
const REACHED = ['whoami', 'sync', 'join', 'leave', 'send', 'joined_members', 'upload', 'download']

const TIMELINE_TYPES = new Set(['m.room.message', 'm.reaction'])
const STATE_TYPES = new Set(['m.room.create', 'm.room.name', 'm.room.member', 'm.room.encryption'])

let rig: Rig

beforeAll(async () => {
  rig = await connectedRig({
    // Answers in the group room quote the message they answer.
    answer: async (message) => {
      if (message.group !== undefined) await rig.hypha.send(message.conversationId, { text: 'noted' })
    },
  })
  const { fake } = rig
  const { world } = fake
  const heard = (eventId: string) => rig.emitted.waitFor((m) => m.messageId === eventId)
  await heard(fake.say(world.directRoom, world.alice, '/help').event_id)
  const root = fake.say(world.groupRoom, world.bob, 'movie night?')
  await heard(root.event_id)
  await fake.server.sent.waitFor(
    (s) => s.event.content['m.relates_to']?.['m.in_reply_to']?.event_id === root.event_id,
  )
  const threaded = fake.say(world.groupRoom, world.alice, 'yes', {
    'm.relates_to': {
      rel_type: 'm.thread',
      event_id: root.event_id,
      is_falling_back: true,
      'm.in_reply_to': { event_id: root.event_id },
    },
  })
  await heard(threaded.event_id)
  const typo = fake.say(world.directRoom, world.alice, '/hepl')
  await heard(typo.event_id)
  fake.say(world.directRoom, world.alice, '* /help', {
    'm.new_content': { msgtype: 'm.text', body: '/help' },
    'm.relates_to': { rel_type: 'm.replace', event_id: typo.event_id },
  })
  await rig.emitted.waitFor((m) => m.messageId === typo.event_id && m.text === '/help')
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2])
  const image = fake.say(world.directRoom, world.alice, 'cat.png', {
    msgtype: 'm.image',
    url: fake.upload(png, 'image/png'),
    info: { mimetype: 'image/png', size: png.byteLength },
  })
  await heard(image.event_id)
  const pdf = new TextEncoder().encode('%PDF')
  const file = fake.say(world.directRoom, world.alice, 'ticket.pdf', {
    msgtype: 'm.file',
    url: fake.upload(pdf, 'application/pdf'),
    info: { mimetype: 'application/pdf', size: pdf.byteLength },
  })
  await heard(file.event_id)
  // An invitation accepted, and an encrypted one left.
  fake.invite('!new-dm:fake.local', world.alice, { direct: true })
  fake.invite('!secret:fake.local', world.alice, { encrypted: true })
  await fake.server.calls.waitFor((call) => call.path.endsWith('/leave'), 10_000)
  await fake.server.calls.waitFor((call) => call.path.includes('/join/'), 10_000)

  await rig.hypha.send(`${world.groupRoom}/${root.event_id}`, { text: 'in the thread' })
  await rig.hypha.send(world.directRoom, { reactTo: { messageId: typo.event_id, emoji: '👍' } })
  await rig.hypha.send(world.directRoom, {
    text: 'your files',
    attachments: [
      { data: png, name: 'poster.png', contentType: 'image/png' },
      { data: pdf, name: 'ticket.pdf', contentType: 'application/pdf' },
    ],
  })
  await rig.hypha.listGroupMembers(world.groupRoom)
  fake.server.inject('/send/', 429, {
    errcode: 'M_LIMIT_EXCEEDED',
    error: 'Too Many Requests',
    retry_after_ms: 100,
  })
  await rig.hypha.send(world.directRoom, { text: 'after the limit' })
  const elsewhere = '!elsewhere:fake.local'
  world.createRoom(elsewhere, { members: [world.carol], bot: false })
  await rig.hypha.send(elsewhere, { text: 'hi' }).catch(() => undefined)
  // The bot's own events come back in a sync, as a homeserver echoes them.
  const echo = fake.say(world.directRoom, world.alice, 'marker')
  await heard(echo.event_id)
}, 60_000)

afterAll(() => rig.stop())

function answerType(call: RecordedCall): string | undefined {
  if (call.status >= 400) return 'ErrorBody'
  return ANSWERS.find(([path]) => path.test(call.path))?.[1]
}

/** Each event a sync served, its content typed by its event type where the SDK publishes one. */
function contents(sync: ISyncResponse, index: number): TypedPayload[] {
  const events = [
    ...Object.values(sync.rooms.join).flatMap((room) => [
      ...room.timeline.events,
      ...(room.state?.events ?? []),
    ]),
    ...Object.values(sync.rooms.invite).flatMap((room) => room.invite_state.events),
    ...Object.values(sync.rooms.leave).flatMap((room) => room.timeline.events),
  ]
  return events.flatMap((event): TypedPayload[] => {
    const from = `sync ${index}: ${event.type} content`
    const inThread = event.content['m.relates_to']?.rel_type === 'm.thread'
    if (TIMELINE_TYPES.has(event.type) && inThread)
      return [{ type: `Wire<InThread<TimelineEvents['${event.type}']>>`, value: event.content, from }]
    if (TIMELINE_TYPES.has(event.type))
      return [{ type: `Wire<TimelineEvents['${event.type}']>`, value: event.content, from }]
    if (STATE_TYPES.has(event.type))
      return [{ type: `Wire<StateEvents['${event.type}']>`, value: event.content, from }]
    return []
  })
}

function payloads(): TypedPayload[] {
  return rig.fake.server.calls.entries.flatMap((call, index): TypedPayload[] => {
    if (call.answered === '(bytes)') return []
    const type = answerType(call)
    if (type === undefined) throw new Error(`no published type is named for ${call.path}`)
    const answer = {
      type,
      value: call.answered,
      from: `answer ${index} to ${call.method} ${call.path} (${call.status})`,
    }
    const isSync = call.path.endsWith('/sync') && call.status === 200
    return isSync ? [answer, ...contents(call.answered as ISyncResponse, index)] : [answer]
  })
}

describe('the fake homeserver’s payloads', () => {
  it('reach every endpoint the hypha uses, with errors among them', () => {
    const paths = rig.fake.server.calls.entries.map((call) => call.path)
    for (const endpoint of REACHED) expect(paths.some((path) => path.includes(endpoint))).toBe(true)
    const statuses = new Set(rig.fake.server.calls.entries.map((call) => call.status))
    for (const status of [200, 403, 429]) expect(statuses).toContain(status)
  })

  it('satisfy matrix-js-sdk’s types, each answer as its endpoint’s and each event content as its type’s', () => {
    const all = payloads()
    expect(all.filter((payload) => payload.type.startsWith('Wire<TimelineEvents')).length).toBeGreaterThan(10)
    const checked = typecheckPayloads(IMPORTS, all)
    expect(checked.output).toBe('')
    expect(checked.ok).toBe(true)
  }, 60_000)

  it('would fail on a payload that drifts: a field renamed, a type changed, a content the spec does not have', () => {
    const sync = rig.fake.server.calls.entries.find(
      (call) => call.path.endsWith('/sync') && call.status === 200,
    )
    const { next_batch, ...rest } = (sync?.answered ?? {}) as ISyncResponse
    const drifted: TypedPayload[] = [
      { type: 'ISyncResponse', value: { ...rest, nextBatch: next_batch }, from: 'renamed' },
      { type: "Answered<'whoami'>", value: { user_id: 42 }, from: 'retyped' },
      { type: "Wire<TimelineEvents['m.room.message']>", value: { msgtype: 'm.text' }, from: 'no body' },
    ]
    const checked = typecheckPayloads(IMPORTS, drifted)
    expect(checked.ok).toBe(false)
    for (const from of ['renamed', 'retyped', 'no body']) expect(checked.output).toContain(`[${from}]`)
  }, 60_000)
})
