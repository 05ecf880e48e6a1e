// The real daemon announces a received attachment by its id only; the hypha fetches its bytes.
import { afterEach, describe, expect, it } from 'bun:test'
import { createSignalHypha, type SignalHypha } from '../src/index.ts'
import { eventually, recordingContext } from './fake/context.ts'
import { FakeDaemon } from './fake/daemon.ts'
import { ALICE, BOOK_CLUB, BOT_NUMBER, directMessage, groupMessage } from './fake/frames.ts'

const PDF_BYTES = new TextEncoder().encode('%PDF-1.7 minutes of the meeting')
const PDF = {
  contentType: 'application/pdf',
  filename: 'minutes.pdf',
  id: 'Q1x9aZ.pdf',
  size: PDF_BYTES.length,
}

let hypha: SignalHypha | undefined
const cleanups: (() => void)[] = []
afterEach(async () => {
  await hypha?.stop()
  for (const cleanup of cleanups.splice(0)) cleanup()
})

async function listening(maxAttachmentBytes?: number) {
  const daemon = FakeDaemon.start()
  cleanups.push(() => daemon.close())
  const recording = recordingContext({
    account: BOT_NUMBER,
    transport: 'jsonrpc',
    address: daemon.socketPath,
  })
  hypha = createSignalHypha({
    backoff: { initialMs: 10, maxMs: 50 },
    ...(maxAttachmentBytes === undefined ? {} : { maxAttachmentBytes }),
  })
  await hypha.connect(recording.context())
  await hypha.listen()
  await eventually(() => daemon.clients === 1, 'the hypha to connect')
  return { daemon, ...recording }
}

const fetches = (daemon: FakeDaemon) =>
  daemon.requests.where((request) => request.method === 'getAttachment').map((request) => request.params)

describe('a received attachment known by its id only', () => {
  it('arrives with its bytes, fetched from the sender with getAttachment', async () => {
    const { daemon, emitted } = await listening()
    daemon.storeAttachment(PDF.id, PDF_BYTES)
    daemon.push(directMessage({ text: 'the minutes', attachments: [PDF] }))
    const message = await emitted.next(() => true, 'a message')
    expect(message.attachments).toEqual([
      { name: 'minutes.pdf', contentType: 'application/pdf', size: PDF_BYTES.length, data: PDF_BYTES },
    ])
    expect(fetches(daemon)).toEqual([{ id: PDF.id, recipient: ALICE.uuid, account: BOT_NUMBER }])
  })

  it('is fetched from the group it was posted in', async () => {
    const { daemon, emitted } = await listening()
    daemon.storeAttachment(PDF.id, PDF_BYTES)
    daemon.push(groupMessage({ text: 'the minutes', attachments: [PDF] }))
    const message = await emitted.next(() => true, 'a message')
    expect(message.attachments[0]?.data).toEqual(PDF_BYTES)
    expect(fetches(daemon)).toEqual([{ id: PDF.id, groupId: BOOK_CLUB.id, account: BOT_NUMBER }])
  })

  it('arrives without bytes past the size bound, never fetched, and the log says why', async () => {
    const { daemon, emitted, logs } = await listening(8)
    daemon.storeAttachment(PDF.id, PDF_BYTES)
    daemon.push(directMessage({ text: 'the minutes', attachments: [PDF] }))
    const message = await emitted.next(() => true, 'a message')
    expect(message.attachments).toEqual([
      { name: 'minutes.pdf', contentType: 'application/pdf', size: PDF_BYTES.length },
    ])
    expect(fetches(daemon)).toEqual([])
    expect(
      logs.where((line) => line.level === 'warn').map(({ message, meta }) => ({ message, meta })),
    ).toEqual([
      {
        message: 'signal: a received attachment arrives without its bytes',
        meta: { messageId: message.messageId, attachment: 'minutes.pdf', why: 'larger than 8 bytes' },
      },
    ])
  })

  it('arrives without bytes when the daemon cannot find them, and the log carries its words', async () => {
    const { emitted, logs, daemon } = await listening()
    daemon.push(directMessage({ text: 'the minutes', attachments: [PDF] }))
    const message = await emitted.next(() => true, 'a message')
    expect(message.attachments[0]?.data).toBeUndefined()
    expect(logs.where((line) => line.level === 'warn')[0]?.meta?.why).toBe(
      'signal-cli refused getAttachment: Attachment file not found (code -1)',
    )
  })
})
