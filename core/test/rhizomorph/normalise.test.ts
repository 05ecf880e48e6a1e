import { describe, expect, it } from 'bun:test'
import { normalise } from '../../rhizomorph/normalise.ts'

const good = {
  channel: 'chat',
  conversationId: 'c1',
  messageId: 'm1',
  sender: { channel: 'chat', externalId: 'u1', displayName: 'Ada' },
  text: 'hello',
  attachments: [{ url: 'https://example.test/a.png', name: 'a.png', size: 3 }],
  raw: { anything: true },
  receivedAt: new Date('2026-01-01T00:00:00Z'),
}

const problem = (input: unknown) => {
  const result = normalise('chat', input, 100)
  return typeof result === 'string' ? result : undefined
}

describe('normalise', () => {
  it('passes a well-formed message through, defaulting attachments and reading a date string', () => {
    const result = normalise(
      'chat',
      { ...good, attachments: undefined, receivedAt: '2026-01-01T00:00:00Z' },
      100,
    )
    if (typeof result === 'string') throw new Error(result)
    expect(result.attachments).toEqual([])
    expect(result.receivedAt).toEqual(new Date('2026-01-01T00:00:00Z'))
    expect(result.raw).toEqual({ anything: true })
  })

  it("keeps the contract's fields in an object of its own, and nothing a hypha added beside them", () => {
    const input = { ...good, group: { id: 'g1', name: 'club' }, injected: 'not part of a message' }
    const result = normalise('chat', input, 100)
    if (typeof result === 'string') throw new Error(result)
    expect(result).not.toBe(input as never)
    expect(Object.keys(result).sort()).toEqual(
      [
        'attachments',
        'channel',
        'conversationId',
        'group',
        'messageId',
        'raw',
        'receivedAt',
        'sender',
        'text',
      ].sort(),
    )
    expect(result).toMatchObject({ ...good, group: { id: 'g1', name: 'club' } })
    const direct = normalise('chat', good, 100)
    if (typeof direct === 'string') throw new Error(direct)
    expect('group' in direct).toBe(false)
  })

  it('names the field that is wrong', () => {
    expect(problem(null)).toBe('malformed message: expected a message object')
    expect(problem({ ...good, conversationId: '' })).toBe(
      'malformed message: conversationId: expected a non-empty string',
    )
    expect(problem({ ...good, messageId: 'x'.repeat(600) })).toBe(
      'malformed message: messageId: longer than 512 characters',
    )
    expect(problem({ ...good, group: { name: 'club' } })).toBe(
      'malformed message: group.id: expected a non-empty string',
    )
    expect(problem({ ...good, sender: { channel: 'chat' } })).toBe(
      'malformed message: sender.externalId: expected a non-empty string',
    )
    expect(problem({ ...good, sender: { ...good.sender, displayName: 7 } })).toBe(
      'malformed message: sender.displayName: expected a string',
    )
    expect(problem({ ...good, text: undefined })).toBe('malformed message: text: expected a string')
    expect(problem({ ...good, attachments: 'a.png' })).toBe('malformed message: attachments: expected a list')
    expect(problem({ ...good, attachments: [{ url: 5 }] })).toBe(
      'malformed message: attachments.0.url: expected a string',
    )
    expect(problem({ ...good, attachments: [{ data: 'bytes' }] })).toBe(
      'malformed message: attachments.0.data: expected bytes',
    )
    expect(problem({ ...good, receivedAt: 'yesterday' })).toBe(
      'malformed message: receivedAt: expected a date',
    )
  })

  it('refuses a message for another channel, and one over the length limit', () => {
    expect(problem({ ...good, channel: 'signal' })).toBe(
      'message claims channel "signal" but came from "chat"',
    )
    expect(problem({ ...good, sender: { channel: 'signal', externalId: 'u1' } })).toBe(
      'sender claims channel "signal" but came from "chat"',
    )
    expect(problem({ ...good, text: 'x'.repeat(101) })).toBe(
      'message of 101 characters is over the limit of 100',
    )
  })
})
