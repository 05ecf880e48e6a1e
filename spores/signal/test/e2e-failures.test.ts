// What the operator sees, through the real core, when signal-cli refuses: the report and the log
// for an account the daemon lacks, /health and the log for messages held by Signal's rate limit.
import { afterEach, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { type CoreWith, startCoreWith } from '../../../core/test/support/boot-core.ts'
import { ALICE, BOB, directMessage, eventually, FakeDaemon } from './fake/index.ts'

const SPORES = join(import.meta.dir, '..', '..')

let core: CoreWith | undefined
let daemon: FakeDaemon | undefined
afterEach(async () => {
  await core?.stop()
  daemon?.close()
  core = undefined
})

const sentTo = (fake: FakeDaemon, to: string) =>
  fake.requests
    .where((request) => request.method === 'send' && (request.params.recipient as string[])[0] === to)
    .map((request) => String(request.params.message))

describe('the signal spore in the real core, when signal-cli refuses', () => {
  it('reports an account the daemon does not have as dormant, in the daemon’s words and what to do', async () => {
    daemon = FakeDaemon.start()
    core = await startCoreWith({
      sporeFolders: [join(SPORES, 'signal')],
      settings: { signal: { account: '+15550199999', transport: 'jsonrpc', address: daemon.socketPath } },
    })
    const line = core.running.report().find((entry) => entry.name === 'signal')
    expect(line?.state).toBe('dormant')
    expect(line?.reason).toContain(
      'signal-cli does not have the account +15550199999 ("Specified account does not exist"). To fix it:',
    )
    expect(
      core.logs().some((log) => String(log.msg).includes('does not have the account +15550199999')),
    ).toBe(true)
  })

  it('holds a reply Signal rate-limits, shows it in /health and the log, then sends it', async () => {
    const fake = FakeDaemon.start()
    daemon = fake
    core = await startCoreWith({
      sporeFolders: [join(SPORES, 'signal'), join(SPORES, 'help'), join(SPORES, 'admin')],
      settings: { signal: { account: fake.account, transport: 'jsonrpc', address: fake.socketPath } },
      roles: { operator: ['help.*', 'admin.health'] },
      grants: [{ channel: 'signal', externalId: BOB.uuid, roles: ['operator'] }],
    })
    await eventually(() => fake.clients === 1, 'the hypha to connect')
    fake.refuseRecipient(ALICE.uuid, { type: 'RATE_LIMIT_FAILURE', retryAfterSeconds: 1 })
    fake.push(directMessage({ from: ALICE, text: '/help' }))
    const held = await core.waitForLog(
      'signal: Signal rate-limited the account; messages wait to be sent in order',
    )
    expect(held.waiting).toBe(1)

    fake.push(directMessage({ from: BOB, text: '/health' }))
    await eventually(() => sentTo(fake, BOB.uuid).length > 0, 'the answer to /health')
    expect(sentTo(fake, BOB.uuid)[0]).toContain(
      'signal: degraded — Signal rate-limited the account: 1 message(s) wait to be sent in order',
    )

    fake.deliverTo(ALICE.uuid)
    await eventually(() => sentTo(fake, ALICE.uuid).length >= 2, 'the held reply', 10_000)
    expect(sentTo(fake, ALICE.uuid).at(-1)).toContain('/help')
  })
})
