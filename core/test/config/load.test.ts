import { afterAll, describe, expect, it } from 'bun:test'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { ConfigFileError, loadConfig } from '../../boot/config.ts'
import { scratchFolder } from '../store/scratch.ts'
import { TEST_KNOBS } from '../support/hermetic.ts'

const scratch = scratchFolder('config')
afterAll(() => scratch.remove())

let count = 0
/** Writes a config file in its own folder and answers its path. */
function configFile(yaml: string): string {
  const folder = join(scratch.path, `case-${++count}`)
  mkdirSync(folder, { recursive: true })
  const path = join(folder, 'mycelo.yaml')
  writeFileSync(path, yaml)
  return path
}

/** The message loadConfig refuses with, without the file's own name. */
function refusal(yaml: string): string {
  const path = configFile(yaml)
  try {
    loadConfig({ path })
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigFileError)
    const label = relative(process.cwd(), path)
    return (error as Error).message.replaceAll(`${label}: `, '')
  }
  throw new Error('the config was accepted')
}

describe('the tests themselves', () => {
  it("never read the operator's configuration, data folder or MYCELO_* settings", () => {
    const named = Object.keys(process.env).filter((name) => name.startsWith('MYCELO_'))
    expect(named.filter((name) => !TEST_KNOBS.has(name))).toEqual(['MYCELO_CONFIG'])
    const config = loadConfig()
    const folder = dirname(process.env.MYCELO_CONFIG!)
    expect(folder.startsWith(process.cwd())).toBe(false)
    expect(config.prefix).toBe('/')
    expect(config.http.port).toBe(8780)
    expect(config.database).toBe(join(folder, 'data', 'mycelo.db'))
    expect(config.spores).toEqual([join(folder, 'spores'), join(folder, 'data', 'spores')])
  })
})

describe('loadConfig', () => {
  it('defaults every field when the file is absent, resolving paths against the folder given', () => {
    // A folder with no mycelo.yaml, whatever the checkout or the operator's working folder holds.
    const cwd = join(scratch.path, 'no-config')
    mkdirSync(cwd, { recursive: true })
    const config = loadConfig({ env: {}, folder: cwd })
    expect(config).toEqual({
      file: undefined,
      isolation: { spores: {}, allow: {}, answerMs: 5000 },
      limits: { memoryMiB: 256, spores: {} },
      prefix: '/',
      spores: [join(cwd, 'spores'), join(cwd, 'data', 'spores')],
      database: join(cwd, 'data', 'mycelo.db'),
      owner: { channel: 'console', userId: 'owner' },
      defaultRole: 'member',
      defaultLocale: 'en',
      timeZone: 'UTC',
      storage: { quotaBytes: 10 * 1024 * 1024, spores: {} },
      http: {
        enabled: true,
        bind: '127.0.0.1',
        port: 8780,
        secureCookies: false,
        sessionIdleMinutes: 120,
        sessionMaxMinutes: 10_080,
      },
      maxMessageLength: 4000,
      outbox: { maxAgeMinutes: 60, limit: 10_000, sendWithinSeconds: 300 },
      timeouts: {
        create: 30_000,
        start: 30_000,
        connect: 30_000,
        listen: 30_000,
        stop: 10_000,
        inspect: 2_000,
        handler: 60_000,
        health: 5_000,
        send: 15_000,
        groupMembers: 5_000,
        execute: 30_000,
      },
      supervision: { healthEvery: 5_000, retryFirst: 1_000, retryMax: 60_000 },
      sporangia: {
        allowLoopbackHttp: false,
        githubApi: 'https://api.github.com',
        installs: join(cwd, 'data', 'spores'),
        staging: join(cwd, 'data', 'staging'),
        limits: {
          downloadBytes: 52_428_800,
          expandedBytes: 209_715_200,
          entries: 10_000,
          downloadMs: 120_000,
        },
      },
      log: { maxBytes: 10_485_760, keep: 5 },
    })
  })

  it('reads the file MYCELO_CONFIG names and resolves relative paths against its folder', () => {
    const path = configFile(
      [
        'prefix: "!"',
        'spores: [plugins, /opt/mycelo/spores]',
        'database: state/bot.db',
        'owner: { channel: signal, userId: "+15550001" }',
        'defaultRole: guest',
        'defaultLocale: fr',
        'http: { port: 9000 }',
        'maxMessageLength: 2000',
        'outbox: { maxAgeMinutes: 10 }',
        'timeouts: { inspect: 500, handler: 90000 }',
        'log: { file: logs/bot.log, keep: 2 }',
      ].join('\n'),
    )
    const folder = join(path, '..')
    expect(loadConfig({ env: { MYCELO_CONFIG: path } })).toEqual({
      file: path,
      isolation: { spores: {}, allow: {}, answerMs: 5000 },
      limits: { memoryMiB: 256, spores: {} },
      prefix: '!',
      spores: [join(folder, 'plugins'), '/opt/mycelo/spores'],
      database: join(folder, 'state', 'bot.db'),
      owner: { channel: 'signal', userId: '+15550001' },
      defaultRole: 'guest',
      defaultLocale: 'fr',
      timeZone: 'UTC',
      storage: { quotaBytes: 10 * 1024 * 1024, spores: {} },
      http: {
        enabled: true,
        bind: '127.0.0.1',
        port: 9000,
        secureCookies: false,
        sessionIdleMinutes: 120,
        sessionMaxMinutes: 10_080,
      },
      maxMessageLength: 2000,
      outbox: { maxAgeMinutes: 10, limit: 10_000, sendWithinSeconds: 300 },
      timeouts: {
        create: 30_000,
        start: 30_000,
        connect: 30_000,
        listen: 30_000,
        stop: 10_000,
        inspect: 500,
        handler: 90_000,
        health: 5_000,
        send: 15_000,
        groupMembers: 5_000,
        execute: 30_000,
      },
      supervision: { healthEvery: 5_000, retryFirst: 1_000, retryMax: 60_000 },
      sporangia: {
        allowLoopbackHttp: false,
        githubApi: 'https://api.github.com',
        installs: join(folder, 'data', 'spores'),
        staging: join(folder, 'data', 'staging'),
        limits: {
          downloadBytes: 52_428_800,
          expandedBytes: 209_715_200,
          entries: 10_000,
          downloadMs: 120_000,
        },
      },
      log: { file: join(folder, 'logs', 'bot.log'), maxBytes: 10_485_760, keep: 2 },
    })
  })

  it('refuses a deadline that is not a whole number of milliseconds, or an unknown one, naming it', () => {
    expect(refusal('timeouts: { inspect: 0 }\n')).toContain('timeouts.inspect')
    expect(refusal('timeouts: { handler: 1.5 }\n')).toContain('timeouts.handler')
    expect(refusal('timeouts: { hanlder: 100 }\n')).toBe('timeouts: unknown key "hanlder"')
  })

  it('refuses a supervision interval out of bounds, or a first retry longer than the longest, naming it', () => {
    expect(refusal('supervision: { healthEvery: 5 }\n')).toContain('supervision.healthEvery')
    expect(refusal('supervision: { retryFirst: 5000, retryMax: 1000 }\n')).toBe(
      'supervision.retryFirst: retryFirst must not be longer than retryMax',
    )
  })

  it('treats an empty file as all defaults', () => {
    const path = configFile('# nothing to change yet\n')
    const config = loadConfig({ path })
    expect(config.file).toBe(path)
    expect(config.database).toBe(join(path, '..', 'data', 'mycelo.db'))
    expect(config.http).toMatchObject({ enabled: true, bind: '127.0.0.1', port: 8780 })
  })

  it('refuses an unknown key, at the top level and nested, naming it', () => {
    expect(refusal('prefx: "!"\n')).toBe('unknown key "prefx"')
    expect(refusal('http:\n  prot: 80\n')).toBe('http: unknown key "prot"')
    expect(refusal('owner: { channel: console, userId: me, role: admin }\n')).toBe(
      'owner: unknown key "role"',
    )
  })

  it('refuses a bad value naming the key path and what is wrong', () => {
    expect(refusal('http:\n  port: "80"\n')).toBe('http.port: expected a number, received the text "80"')
    expect(refusal('http:\n  port: 70000\n')).toBe('http.port: must be at most 65535')
    expect(refusal('http:\n  port: 80.5\n')).toStartWith('http.port: expected an int')
    expect(refusal('spores: [spores, 3]\n')).toBe('spores[1]: expected a string, received a number (3)')
    expect(refusal('spores: []\n')).toBe('spores: must list at least 1')
    expect(refusal('owner: { channel: console }\n')).toBe('owner.userId: required (expected a string)')
    expect(refusal('prefix: ""\n')).toBe('prefix: must not be empty')
    expect(refusal('prefix: "! "\n')).toBe('prefix: must not contain spaces')
    expect(refusal('maxMessageLength: 0\n')).toBe('maxMessageLength: must be at least 1')
    expect(refusal('defaultLocale: "not a locale!"\n')).toBe(
      'defaultLocale: expected a language tag such as "en" or "fr-CA"',
    )
    expect(refusal('defaultRole: Members\n')).toBe(
      'defaultRole: expected lowercase letters, digits and dashes',
    )
    expect(refusal('defaultRole: owner\n')).toBe(
      'defaultRole: must not be "owner": every newcomer would hold every command',
    )
  })

  it('reads storage quotas and a time zone, refusing an unknown zone or a quota below one byte', () => {
    const config = loadConfig({
      path: configFile(
        'timeZone: Europe/Paris\nstorage:\n  quotaBytes: 2048\n  spores: { reminders: 4096 }\n',
      ),
    })
    expect(config.timeZone).toBe('Europe/Paris')
    expect(config.storage).toEqual({ quotaBytes: 2048, spores: { reminders: 4096 } })
    expect(refusal('timeZone: Mars/Olympus\n')).toBe(
      'timeZone: expected an IANA time zone such as "UTC" or "Europe/Paris"',
    )
    expect(refusal('storage: { quotaBytes: 0 }\n')).toBe('storage.quotaBytes: must be at least 1')
    expect(refusal('storage: { spores: { reminders: -1 } }\n')).toBe(
      'storage.spores.reminders: must be at least 1',
    )
    expect(refusal('storage: { quota: 10 }\n')).toBe('storage: unknown key "quota"')
  })

  it('lists every problem at once, one per line', () => {
    expect(refusal('prefx: 1\nhttp: { port: x }\n').split('\n').sort()).toEqual([
      'http.port: expected a number, received the text "x"',
      'unknown key "prefx"',
    ])
  })

  it('names the file, line and column of a YAML syntax error', () => {
    expect(refusal('prefix: "/"\nspores: [a,\ndatabase: x\n')).toStartWith('line 3, column 1: ')
    expect(refusal('prefix: "/"\nprefix: "!"\n')).toBe('line 2, column 1: Map keys must be unique')
  })

  it('refuses a file that is not a mapping of settings', () => {
    expect(refusal('- prefix\n- spores\n')).toBe('expected a mapping of settings at the top level')
  })

  it('refuses a file MYCELO_CONFIG names that does not exist, rather than silently using defaults', () => {
    const missing = join(scratch.path, 'nowhere', 'mycelo.yaml')
    expect(() => loadConfig({ env: { MYCELO_CONFIG: missing } })).toThrow(
      `${relative(process.cwd(), missing)}: no such file (named by MYCELO_CONFIG)`,
    )
  })
})
