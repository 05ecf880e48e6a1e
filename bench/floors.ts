// Floors measured beside the bot in the same run: what the machine does with no path around it.
import { join } from 'node:path'
import { openStore } from '../core/store/index.ts'
import { scratchFolder } from '../core/test/store/scratch.ts'
import { type Timing, timingOf } from './figures.ts'

/**
 * First contact with nothing around it: bun:sqlite writing, per newcomer, the rows the bot writes
 * (principal, identity, role grant, conversation), one commit each, on a store opened exactly as the
 * bot's is (same schema, WAL, synchronous = NORMAL).
 */
export function firstContactFloor(count: number): Timing {
  const scratch = scratchFolder('bench-floor')
  const store = openStore({ path: join(scratch.path, 'mycelo.db') })
  try {
    const sqlite = store.db.$client
    const roleId = (
      sqlite.query("INSERT INTO roles (name, builtin) VALUES ('crowd', 0) RETURNING id").get() as {
        id: number
      }
    ).id
    const principal = sqlite.prepare('INSERT INTO principals (id) VALUES (?)')
    const identity = sqlite.prepare(
      "INSERT INTO channel_identities (principal_id, channel, external_id, display_name) VALUES (?, 'chat', ?, NULL)",
    )
    const grant = sqlite.prepare(
      'INSERT OR IGNORE INTO principal_roles (principal_id, role_id) VALUES (?, ?)',
    )
    const conversation = sqlite.prepare(
      `INSERT INTO conversations (channel, conversation_id, kind, label, first_seen, last_seen)
       VALUES ('chat', ?, 'dm', NULL, ?, ?)
       ON CONFLICT (channel, conversation_id) DO UPDATE SET last_seen = excluded.last_seen RETURNING locale`,
    )
    const meet = sqlite.transaction((i: number) => {
      const now = Date.now()
      conversation.get(`dm${i}`, now, now)
      const id = Bun.randomUUIDv7()
      principal.run(id)
      identity.run(id, `newcomer${i}`)
      grant.run(id, roleId)
    })
    const latencies = new Float64Array(count)
    const started = performance.now()
    for (let i = 0; i < count; i++) {
      const t0 = performance.now()
      meet(i)
      latencies[i] = performance.now() - t0
    }
    return timingOf(latencies, performance.now() - started)
  } finally {
    store.close()
    scratch.remove()
  }
}
