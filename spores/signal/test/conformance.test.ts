import { afterEach, describe, expect, it } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { hyphaChecks } from '@mycelo/septum/conformance'
import { parse } from 'yaml'
import module, { createSignalHypha } from '../src/index.ts'
import { recordingContext } from './fake/context.ts'
import { ALICE, BOOK_CLUB } from './fake/frames.ts'
import { type FakePeer, PEER_KINDS } from './fake/peers.ts'

const manifest = parse(readFileSync(join(import.meta.dir, '..', 'spore.yaml'), 'utf8'))

let peer: FakePeer | undefined
afterEach(() => peer?.close())

describe('the Signal hypha passes the conformance kit', () => {
  for (const kind of PEER_KINDS) {
    it(`against a fake ${kind.label}`, async () => {
      peer = kind.start()
      const { context } = recordingContext(peer.config)
      const failures = await hyphaChecks({
        name: 'signal',
        manifest,
        module: { ...module, create: () => createSignalHypha({ backoff: { initialMs: 10, maxMs: 50 } }) },
        context,
        config: peer.config,
        invalidConfig: { account: '15550100000', transport: 'jsonrpc', address: 'not an address' },
        membershipGroupId: BOOK_CLUB.id,
        conversationId: ALICE.uuid,
      })
      expect(failures).toEqual([])
      expect(peer.sent()).toEqual([{ to: ALICE.uuid, text: 'conformance check', attachments: [] }])
    })
  }

  it('with its own default export, untouched', async () => {
    peer = PEER_KINDS[0]!.start()
    const failures = await hyphaChecks({
      name: 'signal',
      manifest,
      module,
      context: recordingContext(peer.config).context,
      config: peer.config,
      membershipGroupId: BOOK_CLUB.id,
    })
    expect(failures).toEqual([])
  })
})
