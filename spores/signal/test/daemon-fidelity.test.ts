// The fake daemon speaks JSON-RPC as signal-cli's own reader and command handler do: every answer
// carries jsonrpc "2.0", the request's id (null where none could be read) and exactly one of result
// or error; they check, in this order, an empty line (-32700), JSON (-32700), the version (-32600),
// the method (-32600), whether the method exists (-32601), then the account (-32602, "requires
// valid account parameter" when none is named); a request without an id is answered with nothing;
// a command's user error is -1, with what it had written so far under data.response.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type { Socket } from 'bun'
import { FakeDaemon } from './fake/daemon.ts'
import { ALICE, BOT_NUMBER } from './fake/frames.ts'

let daemon: FakeDaemon
let socket: Socket<undefined>
const lines: Record<string, unknown>[] = []

beforeAll(async () => {
  daemon = FakeDaemon.start()
  const [hostname, port] = daemon.tcpAddress.split(':')
  let partial = ''
  socket = await Bun.connect({
    hostname: hostname!,
    port: Number(port),
    socket: {
      data(_socket, chunk) {
        const parts = (partial + chunk.toString()).split('\n')
        partial = parts.pop() ?? ''
        for (const part of parts) lines.push(JSON.parse(part))
      },
    },
  })
})
afterAll(() => {
  socket?.end()
  daemon?.close()
})

/** Writes one raw line; answers the next line the daemon writes back, or undefined if none within 300 ms. */
async function exchange(line: string): Promise<Record<string, unknown> | undefined> {
  const before = lines.length
  socket.write(`${line}\n`)
  for (let waited = 0; waited < 300 && lines.length === before; waited += 10) await Bun.sleep(10)
  return lines[before]
}

const call = (body: Record<string, unknown>) => exchange(JSON.stringify({ jsonrpc: '2.0', ...body }))
const refusal = (code: number, message: string, id: unknown, data: unknown = null) => ({
  jsonrpc: '2.0',
  error: { code, message, data },
  id,
})

describe('the fake signal-cli daemon answers JSON-RPC as signal-cli does', () => {
  it('refuses an empty line, bad JSON, another version and a missing method, in that order', async () => {
    expect(await exchange('   ')).toEqual(refusal(-32700, 'Empty input line', null))
    expect(await exchange('{"jsonrpc":')).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 }, id: null })
    expect(await exchange(JSON.stringify({ jsonrpc: '1.0', method: 'send', id: 1 }))).toEqual(
      refusal(-32600, 'only jsonrpc version 2.0 is supported', 1),
    )
    expect(await call({ id: 2 })).toEqual(refusal(-32600, 'method field must be set', 2))
  })

  it('names an unknown method before the account, and asks for an account a call does not name', async () => {
    expect(await call({ method: 'noSuchThing', params: { account: '+1999' }, id: 3 })).toEqual(
      refusal(-32601, 'Method not implemented', 3),
    )
    expect(await call({ method: 'listGroups', id: 4 })).toEqual(
      refusal(-32602, 'Method requires valid account parameter', 4),
    )
    expect(await call({ method: 'listGroups', params: { account: '+1999' }, id: 5 })).toEqual(
      refusal(-32602, 'Specified account does not exist', 5),
    )
    expect(await call({ method: 'listAccounts', id: 6 })).toEqual({
      jsonrpc: '2.0',
      result: [{ number: BOT_NUMBER }],
      id: 6,
    })
  })

  it('answers a send with its timestamp and one result per recipient, a refused one as error -1 with data.response', async () => {
    const sent = await call({
      method: 'send',
      params: { account: BOT_NUMBER, recipient: [ALICE.uuid], message: 'hello' },
      id: 'a',
    })
    expect(Object.keys(sent ?? {}).sort()).toEqual(['id', 'jsonrpc', 'result'])
    expect(sent?.result).toEqual({
      timestamp: expect.any(Number),
      results: [{ recipientAddress: { uuid: ALICE.uuid, number: null }, type: 'SUCCESS' }],
    })
    expect(await call({ method: 'send', params: { account: BOT_NUMBER, message: 'x' }, id: 'b' })).toEqual(
      refusal(-1, 'No recipients given', 'b'),
    )
    daemon.limitRate({ sends: 0, ms: 60_000, retryAfterSeconds: 3 })
    const limited = await call({
      method: 'send',
      params: { account: BOT_NUMBER, recipient: [ALICE.uuid], message: 'held' },
      id: 'c',
    })
    daemon.limitRate(undefined)
    expect(limited).toEqual(
      refusal(-1, 'Failed to send message', 'c', {
        response: {
          timestamp: expect.any(Number),
          results: [
            {
              recipientAddress: { uuid: ALICE.uuid, number: null },
              type: 'RATE_LIMIT_FAILURE',
              retryAfterSeconds: 3,
            },
          ],
        },
      }),
    )
  })

  it('runs a request without an id and answers nothing', async () => {
    const quiet = () => daemon.delivered.where((request) => request.params.message === 'quiet').length
    expect(quiet()).toBe(0)
    expect(
      await call({
        method: 'send',
        params: { account: BOT_NUMBER, recipient: [ALICE.uuid], message: 'quiet' },
      }),
    ).toBeUndefined()
    expect(quiet()).toBe(1)
  })
})
