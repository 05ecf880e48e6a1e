import { afterEach, describe, expect, it } from 'bun:test'
import { createSignalHypha, type SignalHypha } from '../src/index.ts'
import { eventually, recordingContext } from './fake/context.ts'
import {
  ALICE,
  BOB,
  BOOK_CLUB,
  directMessage,
  GARBAGE_LINE,
  groupMessage,
  reaction,
  readReceipt,
  remoteDelete,
  syncSentMessage,
  timestampOf,
  typingIndicator,
} from './fake/frames.ts'
import { type FakePeer, PEER_KINDS } from './fake/peers.ts'

let peer: FakePeer | undefined
let hypha: SignalHypha | undefined
afterEach(async () => {
  await hypha?.stop()
  peer?.close()
})

async function listening(kind: (typeof PEER_KINDS)[number]) {
  peer = kind.start()
  const recording = recordingContext(peer.config)
  hypha = createSignalHypha({ backoff: { initialMs: 10, maxMs: 50 } })
  await hypha.connect(recording.context())
  await hypha.listen()
  const fake = peer
  await eventually(() => fake.connections() === 1, 'the hypha to connect')
  return { ...recording, peer: fake }
}

for (const kind of PEER_KINDS) {
  describe(`inbound from a fake ${kind.label}`, () => {
    it('normalises a direct message', async () => {
      const { peer, emitted } = await listening(kind)
      const frame = directMessage({ text: 'hello bot' })
      peer.push(frame)
      const message = await emitted.next(() => true, 'a message')
      const timestamp = timestampOf(frame)
      expect(message).toEqual({
        channel: 'signal',
        conversationId: ALICE.uuid,
        messageId: `${ALICE.uuid}:${timestamp}`,
        sender: { channel: 'signal', externalId: ALICE.uuid, displayName: 'Alice' },
        text: 'hello bot',
        attachments: [],
        raw: frame.envelope,
        receivedAt: new Date(timestamp),
      })
      expect(message.group).toBeUndefined()
    })

    it('normalises a group message into the group conversation', async () => {
      const { peer, emitted } = await listening(kind)
      const frame = groupMessage({ text: '/help', from: BOB })
      peer.push(frame)
      const message = await emitted.next(() => true, 'a message')
      expect(message.conversationId).toBe(`group:${BOOK_CLUB.id}`)
      expect(message.group).toEqual({ id: BOOK_CLUB.id, name: 'Book club' })
      expect(message.sender).toEqual({ channel: 'signal', externalId: BOB.uuid, displayName: 'Bob' })
      expect(message.messageId).toBe(`${BOB.uuid}:${timestampOf(frame)}`)
      expect(message.text).toBe('/help')
    })

    it('skips typing, receipts, deletes, reactions, sync messages and garbage, and still hears the next message', async () => {
      const { peer, emitted, logs } = await listening(kind)
      const first = directMessage({ text: 'first' })
      peer.push(first)
      await emitted.next(() => true, 'the first message')
      peer.push(typingIndicator())
      peer.push(readReceipt([timestampOf(first)]))
      peer.pushGarbage()
      peer.push(remoteDelete(timestampOf(first)))
      peer.push(reaction(timestampOf(first)))
      peer.push(syncSentMessage('sent from my phone'))
      peer.push(groupMessage({ text: 'after the noise' }))
      const next = await emitted.next(() => true, 'the message after the noise')
      expect(next.text).toBe('after the noise')
      expect(emitted.all.map((message) => message.text)).toEqual(['first', 'after the noise'])
      const skipped = logs.where((line) => line.level === 'warn')
      expect(skipped).toHaveLength(1)
      expect(skipped[0]!.message).toBe('skipped a frame from signal-cli that is not a payload')
      expect(skipped[0]!.meta?.frame).toBe(GARBAGE_LINE)
      const reasons = logs
        .where((line) => line.message === 'ignored a Signal envelope')
        .map((l) => l.meta?.reason)
      expect(reasons).toEqual([
        'a typing indicator',
        'a receipt',
        'a remote delete',
        'a reaction',
        'a sync message from a linked device',
      ])
    })
  })
}

describe('inbound before listen()', () => {
  it('keeps what arrives between connect() and listen(), and hands it over in order once listening', async () => {
    peer = PEER_KINDS[0]!.start()
    const { context, emitted, logs } = recordingContext(peer.config)
    hypha = createSignalHypha({ backoff: { initialMs: 10, maxMs: 50 } })
    await hypha.connect(context())
    const fake = peer
    await eventually(() => fake.connections() === 1, 'the hypha to connect')
    fake.push(directMessage({ text: 'early one' }))
    fake.push(directMessage({ text: 'early two' }))
    // Frames are read in order, so once the garbage after them is logged, both were heard.
    const logged = logs.next((line) => line.level === 'warn', 'the garbage line to be logged')
    fake.pushGarbage()
    await logged
    expect(emitted.all).toEqual([])
    await hypha.listen()
    await eventually(() => emitted.all.length === 2, 'both early messages')
    expect(emitted.all.map((message) => message.text)).toEqual(['early one', 'early two'])
  })
})
