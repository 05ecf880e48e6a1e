// Signal: signal-cli is found where it usually listens (the daemon's socket, its TCP port, or the
// signal-cli-rest-api container), or where the person says; it is asked which accounts it holds,
// and the hypha is set to the one chosen (the only one, or the one named).
import { connect } from 'node:net'
import type { OutcomeOf } from '@mycelo/septum'
import { parseDaemonAddress, parseRestAddress } from '../../spores/signal/src/config.ts'
import { refused } from '../mycelium/outcome.ts'
import type { Connected, Connector } from './connector.ts'

/** Where signal-cli listens when set up as docs/channels.md says, tried in this order. */
export const SIGNAL_CANDIDATES = ['/run/signal-cli/socket', '127.0.0.1:7583', 'http://127.0.0.1:8080']

type Found = { readonly transport: 'jsonrpc' | 'rest'; readonly address: string; readonly accounts: string[] }

/** `listAccounts` over the daemon's JSON-RPC: one request line, one answer line. */
function daemonAccounts(address: string, deadlineMs: number): Promise<string[] | undefined> {
  const endpoint = parseDaemonAddress(address)
  if (endpoint === undefined) return Promise.resolve(undefined)
  return new Promise((resolve) => {
    const socket = 'unix' in endpoint ? connect(endpoint.unix) : connect(endpoint.port, endpoint.hostname)
    let buffered = ''
    const done = (accounts: string[] | undefined) => {
      clearTimeout(timer)
      socket.destroy()
      resolve(accounts)
    }
    const timer = setTimeout(() => done(undefined), deadlineMs)
    socket.on('error', () => done(undefined))
    socket.on('connect', () => socket.write('{"jsonrpc":"2.0","method":"listAccounts","id":"connect"}\n'))
    socket.on('data', (chunk) => {
      buffered += chunk.toString('utf8')
      for (const line of buffered.split('\n').slice(0, -1)) {
        const answer = JSON.parse(line) as { id?: unknown; result?: { number?: unknown }[] }
        if (answer.id !== 'connect') continue
        done((answer.result ?? []).map((account) => account.number).filter((n) => typeof n === 'string'))
      }
    })
  })
}

async function restAccounts(address: string, deadlineMs: number): Promise<string[] | undefined> {
  const base = parseRestAddress(address)
  if (base === undefined) return undefined
  try {
    const response = await fetch(`${base}/v1/accounts`, { signal: AbortSignal.timeout(deadlineMs) })
    if (!response.ok) return undefined
    const accounts: unknown = await response.json()
    return Array.isArray(accounts) ? accounts.filter((n) => typeof n === 'string') : undefined
  } catch {
    return undefined
  }
}

async function find(address: string, deadlineMs: number): Promise<Found | undefined> {
  const rest = parseRestAddress(address) !== undefined
  const accounts = rest ? await restAccounts(address, deadlineMs) : await daemonAccounts(address, deadlineMs)
  return accounts === undefined ? undefined : { transport: rest ? 'rest' : 'jsonrpc', address, accounts }
}

export const signalConnector: Connector = {
  spore: 'signal',
  asksSecret: false,
  async check(input, { deadlineMs }): Promise<OutcomeOf<Connected>> {
    const [asked, chosen] = input.args
    const tried = asked === undefined ? SIGNAL_CANDIDATES : [asked]
    let found: Found | undefined
    for (const address of tried) {
      found = await find(address, Math.min(deadlineMs, 3_000))
      if (found !== undefined) break
    }
    if (found === undefined) return refused('connect_signal_missing', { tried: tried.join(', ') })
    const { accounts } = found
    if (accounts.length === 0) return refused('connect_signal_no_account', { address: found.address })
    const account = chosen ?? (accounts.length === 1 ? accounts[0] : undefined)
    if (account === undefined || !accounts.includes(account))
      return refused('connect_signal_choose', { address: found.address, accounts: accounts.join(', ') })
    return {
      ok: true,
      value: { who: account, settings: { account, transport: found.transport, address: found.address } },
    }
  },
}
