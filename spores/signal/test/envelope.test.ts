import { describe, expect, it } from 'bun:test'
import { normaliseReceived } from '../src/envelope.ts'
import {
  ALICE,
  BOT_NUMBER,
  directMessage,
  groupMessage,
  type ReceivePayload,
  timestampOf,
} from './fake/frames.ts'

const options = { account: BOT_NUMBER }
const PDF = { contentType: 'application/pdf', filename: 'minutes.pdf', id: 'Q1x9aZ.pdf', size: 48213 }

function withEnvelope(
  payload: ReceivePayload,
  change: (envelope: Record<string, unknown>) => void,
): ReceivePayload {
  const envelope = structuredClone(payload.envelope) as Record<string, unknown>
  change(envelope)
  return { ...payload, envelope }
}

describe('normaliseReceived', () => {
  it('reads attachments with name, type and size, and a URL where the transport serves them', () => {
    const frame = directMessage({ attachments: [PDF, { ...PDF, filename: null, id: 'nameless' }] })
    const served = normaliseReceived(frame, {
      ...options,
      attachmentUrl: (id) => `http://api/v1/attachments/${id}`,
    })
    expect(served.kind === 'message' && served.message).toMatchObject({
      text: '',
      attachments: [
        {
          url: 'http://api/v1/attachments/Q1x9aZ.pdf',
          name: 'minutes.pdf',
          contentType: 'application/pdf',
          size: 48213,
        },
        {
          url: 'http://api/v1/attachments/nameless',
          name: 'nameless',
          contentType: 'application/pdf',
          size: 48213,
        },
      ],
    })
    const local = normaliseReceived(frame, options)
    expect(local.kind === 'message' && local.message.attachments[0]).toEqual({
      name: 'minutes.pdf',
      contentType: 'application/pdf',
      size: 48213,
    })
  })

  it('unwraps the subscription result a daemon in manual receive mode sends', () => {
    const frame = directMessage({ text: 'hi' })
    const outcome = normaliseReceived({ subscription: 0, result: frame }, options)
    expect(outcome.kind === 'message' && outcome.message.text).toBe('hi')
  })

  it('falls back to the number when the sender has no uuid, and keeps a nameless group', () => {
    const frame = withEnvelope(groupMessage({ text: 'hi', from: ALICE }), (envelope) => {
      delete envelope.sourceUuid
      delete envelope.sourceName
      delete (envelope.dataMessage as { groupInfo: Record<string, unknown> }).groupInfo.groupName
    })
    const outcome = normaliseReceived(frame, options)
    if (outcome.kind !== 'message') throw new Error(`not a message: ${outcome.reason}`)
    expect(outcome.message.sender).toEqual({ channel: 'signal', externalId: ALICE.number })
    expect(outcome.message.messageId).toBe(`${ALICE.number}:${timestampOf(frame)}`)
    expect(outcome.message.group).toEqual({ id: expect.any(String) })
  })

  it('ignores what the bot sent itself and what is addressed to another account', () => {
    const own = directMessage({ text: 'echo', from: { number: BOT_NUMBER, uuid: 'b07', name: 'Mycelo' } })
    expect(normaliseReceived(own, options)).toEqual({ kind: 'ignored', reason: 'sent by the bot itself' })
    expect(normaliseReceived(directMessage({ text: 'hi', account: '+15550199999' }), options)).toEqual({
      kind: 'ignored',
      reason: 'addressed to another account (+15550199999)',
    })
    expect(normaliseReceived(directMessage({}), options)).toEqual({
      kind: 'ignored',
      reason: 'a data message with no text or attachment',
    })
  })

  it('reports payloads it cannot read as malformed, saying why', () => {
    expect(normaliseReceived('text', options)).toEqual({
      kind: 'malformed',
      reason: 'the payload is not an object',
    })
    expect(normaliseReceived({ account: BOT_NUMBER }, options)).toEqual({
      kind: 'malformed',
      reason: 'the payload has no envelope',
    })
    const anonymous = withEnvelope(directMessage({ text: 'hi' }), (envelope) => {
      for (const key of ['source', 'sourceNumber', 'sourceUuid']) delete envelope[key]
    })
    expect(normaliseReceived(anonymous, options)).toEqual({
      kind: 'malformed',
      reason: 'the envelope names no sender',
    })
    const timeless = withEnvelope(directMessage({ text: 'hi' }), (envelope) => {
      delete envelope.timestamp
      delete (envelope.dataMessage as Record<string, unknown>).timestamp
    })
    expect(normaliseReceived(timeless, options)).toEqual({
      kind: 'malformed',
      reason: 'the envelope has no timestamp',
    })
  })
})
