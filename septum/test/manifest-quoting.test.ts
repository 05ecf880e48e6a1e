import { describe, expect, it } from 'bun:test'
import { parse } from 'yaml'
import { enzyme, expectRefusal, refusalOf, rhiza } from './manifest-refusal.ts'

// What a spore.yaml linked to another file parses to: one long text, over several lines.
const PASSWD = Array.from(
  { length: 40 },
  (_, line) => `user${line}:x:${1000 + line}:${1000 + line}:User ${line}:/home/user${line}:/bin/sh`,
).join('\n')
const LONG = `${'Radarr '.repeat(170)}-end`

/** Asserts a refusal message quotes none of the long value: neither its end nor a line break. */
function expectBounded(message: string): void {
  expect(message).not.toContain('-end')
  expect(message).not.toContain('user39')
  expect(message).not.toContain('\n')
  expect(message).not.toContain(LONG.slice(0, 60))
}

describe('a refusal quotes a received value shortened', () => {
  it('for a document that is one long text, cut with an ellipsis on one line', () => {
    const error = refusalOf(parse(PASSWD))
    expectBounded(error.message)
    expect(error.message).toContain('not the text "user0:x:1000:1000:User 0:/home/user0:/b…"')
  })

  it('for a name, a kind, a capability and a scope', () => {
    expectBounded(expectRefusal(rhiza({ name: LONG }), 'name', 'is not a valid name').message)
    expectBounded(refusalOf(rhiza({ kind: LONG })).message)
    const hypha = { kind: 'hypha', name: 'chat', septum: '^1.0', capabilities: [LONG] }
    expectBounded(expectRefusal(hypha, 'capabilities.0', 'is not a channel capability').message)
    const scoped = rhiza({ requires: [{ rhiza: 'mycelium', scopes: [LONG] }] })
    expectBounded(expectRefusal(scoped, 'requires.0.scopes.0', 'is not a mycelium scope').message)
  })

  it('for a field of the wrong type and a command declared twice', () => {
    expectBounded(expectRefusal(rhiza({ description: 7 }), 'description', 'not 7').message)
    expectBounded(expectRefusal(enzyme({ commands: LONG }), 'commands', 'must be a list').message)
    // A valid name may be long too, and is quoted when declared twice.
    const twice = { name: `${'radarr'.repeat(200)}-end`, description: 'd', respond: 'r' }
    expectBounded(
      expectRefusal(enzyme({ commands: [twice, twice] }), 'commands.1.name', 'declared twice').message,
    )
  })

  it('for an unknown key, in the path that names it', () => {
    const error = refusalOf(rhiza({ [LONG]: true }))
    expectBounded(error.message)
    expect(error.path).toBe(`${LONG.slice(0, 39)}…`)
  })

  it('for a septum range too long to be one, refused by its length before the matcher quotes it', () => {
    const error = expectRefusal(
      rhiza({ septum: `^1.0 ${LONG}` }),
      'septum',
      `is ${LONG.length + 5} characters long`,
    )
    expectBounded(error.message)
  })
})
