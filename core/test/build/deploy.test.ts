// The systemd unit in deploy/ runs what `bun run build` produces, as docs/operating.md installs it:
// the unit is parsed, not grepped, and its command is read by the bot's own argument parser.
import { describe, expect, it } from 'bun:test'
import { readFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { parseArguments } from '../../boot/arguments.ts'
import { EXECUTABLE_OUTFILE } from '../../boot/shipped.ts'
import { ROOT } from '../boot/process.ts'

/** A unit file's sections, each key with every value it is given, in order. */
function parseUnit(text: string): Map<string, Map<string, string[]>> {
  const sections = new Map<string, Map<string, string[]>>()
  let current: Map<string, string[]> | undefined
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue
    const section = /^\[(\w+)\]$/.exec(line)
    if (section) {
      current = new Map()
      sections.set(section[1]!, current)
      continue
    }
    const pair = /^(\w+)=(.*)$/.exec(line)
    if (!pair || current === undefined) throw new Error(`not a unit file line: ${line}`)
    current.set(pair[1]!, [...(current.get(pair[1]!) ?? []), pair[2]!])
  }
  return sections
}

const unit = parseUnit(readFileSync(join(ROOT, 'deploy', 'mycelo.service'), 'utf8'))
const service = unit.get('Service')!
const one = (key: string) => {
  const values = service.get(key) ?? []
  expect(values, key).toHaveLength(1)
  return values[0]!
}

describe('deploy/mycelo.service', () => {
  it('starts the built executable as the bot, with options the bot takes', () => {
    const [program, ...options] = one('ExecStart').split(/\s+/)
    expect(basename(program!)).toBe(basename(EXECUTABLE_OUTFILE))
    // Options alone make the executable the bot (a word first would be a command of the CLI).
    expect(options.every((option) => option.startsWith('-'))).toBe(true)
    const parsed = parseArguments(options)
    expect(parsed).toEqual({ ok: true, value: { check: false, json: false, help: false } })
    // The page documents putting exactly the build's output there.
    const operating = readFileSync(join(ROOT, 'docs', 'operating.md'), 'utf8')
    expect(operating).toContain('sudo bun run build\n')
    expect(operating).toContain(`sudo install -m 0755 ${EXECUTABLE_OUTFILE} ${program}\n`)
    expect(operating).toContain('sudo cp deploy/mycelo.service /etc/systemd/system/')
  })

  it('runs in its own state folder, where its configuration is and the only place it may write', () => {
    const config = /^MYCELO_CONFIG=(\S+)$/.exec(one('Environment'))![1]!
    const state = one('WorkingDirectory')
    expect(dirname(config)).toBe(state)
    expect(one('ReadWritePaths')).toBe(state)
    expect(`/var/lib/${one('StateDirectory')}`).toBe(state)
    expect(one('User')).toBe('mycelo')
    expect(one('KillSignal')).toBe('SIGTERM')
    expect(unit.get('Install')!.get('WantedBy')).toEqual(['multi-user.target'])
  })
})
