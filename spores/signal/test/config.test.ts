import { describe, expect, it } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type Catalog, type ConfigIssue, compileCatalog, flattenCatalog } from '@mycelo/septum'
import { parse } from 'yaml'
import module from '../src/index.ts'

const { configSchema } = module
const ACCOUNT = '+15550100000'

function issues(input: unknown): readonly ConfigIssue[] {
  const result = configSchema.safeParse(input)
  if (result.success) throw new Error('the settings were accepted')
  return result.error.issues
}

const catalogs = Object.fromEntries(
  ['en', 'fr'].map((locale) => [
    locale,
    parse(readFileSync(join(import.meta.dir, '..', 'translations', `${locale}.yaml`), 'utf8')) as Catalog,
  ]),
)

describe('the Signal settings', () => {
  it('accept a daemon socket path, a daemon host:port and a REST URL with credentials', () => {
    for (const settings of [
      { account: ACCOUNT, address: '/run/signal-cli/socket' },
      { account: ACCOUNT, transport: 'jsonrpc', address: 'localhost:7583' },
      { account: ACCOUNT, transport: 'jsonrpc', address: '[::1]:7583' },
      { account: ACCOUNT, transport: 'rest', address: 'http://signal:8080/', token: 't' },
      {
        account: ACCOUNT,
        transport: 'rest',
        address: 'https://signal.example',
        username: 'u',
        password: 'p',
      },
    ]) {
      expect(configSchema.safeParse(settings).success).toBe(true)
    }
    expect(configSchema.safeParse({ account: ACCOUNT, address: '/s' })).toEqual({
      success: true,
      data: { account: ACCOUNT, transport: 'jsonrpc', address: '/s' },
    })
  })

  it('refuse a jsonrpc address that is neither a socket path nor host:port', () => {
    for (const address of ['signal-cli', 'http://127.0.0.1:7583', '127.0.0.1:99999']) {
      expect(issues({ account: ACCOUNT, address })).toEqual([
        { path: ['address'], message: 'config.address.jsonrpc', messageKey: 'config.address.jsonrpc' },
      ])
    }
  })

  it('refuse a rest address that is not an http(s) URL', () => {
    expect(issues({ account: ACCOUNT, transport: 'rest', address: '/run/signal-cli/socket' })).toEqual([
      { path: ['address'], message: 'config.address.rest', messageKey: 'config.address.rest' },
    ])
  })

  it('refuse credentials on the jsonrpc transport, half a basic-auth pair, and both kinds at once', () => {
    expect(issues({ account: ACCOUNT, address: '/s', token: 't' })).toEqual([
      { path: ['token'], message: 'config.auth.rest_only', messageKey: 'config.auth.rest_only' },
    ])
    const rest = { account: ACCOUNT, transport: 'rest', address: 'http://127.0.0.1:8080' }
    expect(issues({ ...rest, username: 'u' })).toEqual([
      { path: ['password'], message: 'config.auth.pair', messageKey: 'config.auth.pair' },
    ])
    expect(issues({ ...rest, token: 't', username: 'u', password: 'p' })).toEqual([
      { path: ['token'], message: 'config.auth.either', messageKey: 'config.auth.either' },
    ])
  })

  it('refuse an account that is not an international number, and an unknown key', () => {
    expect(issues({ account: '5550100000', address: '/s' }).map((issue) => issue.path)).toEqual([['account']])
    expect(issues({ account: ACCOUNT, address: '/s', url: 'x' }).map((issue) => issue.messageKey)).toEqual([
      { domain: 'common', key: 'config.unrecognized_keys' },
    ])
  })

  it('declare the token and the password secret, in a closed schema that declares both', () => {
    expect(configSchema.secrets).toEqual(['token', 'password'])
    const schema = configSchema.toJsonSchema() as {
      properties: Record<string, unknown>
      additionalProperties: unknown
    }
    expect(Object.keys(schema.properties)).toEqual([
      'account',
      'transport',
      'address',
      'token',
      'username',
      'password',
      'checkSeconds',
    ])
    expect(schema.additionalProperties).toBe(false)
  })

  it('have every refusal key in English and French, and both catalogues compile', () => {
    const keys = [
      'config.address.jsonrpc',
      'config.address.rest',
      'config.auth.rest_only',
      'config.auth.pair',
    ]
    keys.push('config.auth.either')
    for (const [locale, catalog] of Object.entries(catalogs)) {
      const config = [...flattenCatalog(locale, catalog).keys()].filter((key) => key.startsWith('config.'))
      expect(config.sort()).toEqual([...keys].sort())
      expect(() => compileCatalog(locale, catalog)).not.toThrow()
    }
  })
})
