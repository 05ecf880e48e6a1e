import { afterAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { SECRET_MASK } from '@mycelo/septum'
import { createPluginStore, openStore } from '../../store/index.ts'
import { scratchFolder } from './scratch.ts'

const scratch = scratchFolder('store-plugins')
afterAll(() => scratch.remove())

describe('plugin store', () => {
  it('is fresh until the first install is recorded, then remembers enabled states', () => {
    const store = openStore({ path: join(scratch.path, 'installs.db') })
    const plugins = createPluginStore(store)
    expect(plugins.isFresh()).toBe(true)
    expect(plugins.installOf('console')).toBeUndefined()
    plugins.recordInstall('console', { enabled: true, reason: null })
    plugins.recordInstall('discord', { enabled: false, reason: 'token: required' })
    expect(plugins.isFresh()).toBe(false)
    plugins.recordInstall('discord', { enabled: false, reason: 'token: too short' })
    expect(plugins.installOf('discord')).toEqual({ enabled: false, reason: 'token: too short' })
    store.close()

    const again = openStore({ path: join(scratch.path, 'installs.db') })
    const reopened = createPluginStore(again)
    expect(reopened.isFresh()).toBe(false)
    expect(reopened.installOf('console')).toEqual({ enabled: true, reason: null })
    expect(reopened.installOf('discord')).toEqual({ enabled: false, reason: 'token: too short' })
    again.close()
  })

  it('stores settings as JSON, secrets included in the clear for the running core', () => {
    const store = openStore({ path: join(scratch.path, 'settings.db') })
    const plugins = createPluginStore(store)
    plugins.setSetting('radarr', 'url', 'http://127.0.0.1:7878')
    plugins.setSetting('radarr', 'retries', 3)
    plugins.setSetting('radarr', 'tags', ['movies', { nested: true }])
    plugins.setSetting('radarr', 'apiKey', 'k-123456', { secret: true })
    expect(plugins.settingsOf('radarr')).toEqual({
      url: 'http://127.0.0.1:7878',
      retries: 3,
      tags: ['movies', { nested: true }],
      apiKey: 'k-123456',
    })
    expect(plugins.settingsOf('sonarr')).toEqual({})
    expect(plugins.settingsWithFlags('radarr')).toEqual({
      url: { value: 'http://127.0.0.1:7878', secret: false },
      retries: { value: 3, secret: false },
      tags: { value: ['movies', { nested: true }], secret: false },
      apiKey: { value: 'k-123456', secret: true },
    })
    expect(() => plugins.setSetting('radarr', 'bad', undefined)).toThrow(
      'setting radarr.bad: the value is not JSON',
    )
    store.close()
  })

  it('ignores the mask written to a secret key and keeps a secret flag once set', () => {
    const store = openStore({ path: join(scratch.path, 'secrets.db') })
    let notified = 0
    const plugins = createPluginStore(store, { onSecretWritten: () => notified++ })
    plugins.setSetting('discord', 'token', 'first-token', { secret: true })
    plugins.setSetting('discord', 'token', SECRET_MASK, { secret: true })
    expect(plugins.settingsOf('discord')).toEqual({ token: 'first-token' })
    // A later write that no longer declares the key secret does not un-redact it.
    plugins.setSetting('discord', 'token', 'second-token')
    expect(plugins.settingsWithFlags('discord')).toEqual({ token: { value: 'second-token', secret: true } })
    plugins.setSetting('discord', 'token', SECRET_MASK)
    expect(plugins.settingsOf('discord')).toEqual({ token: 'second-token' })
    // The mask on a key that is not secret is an ordinary string.
    plugins.setSetting('discord', 'status', SECRET_MASK)
    expect(plugins.settingsOf('discord').status).toBe(SECRET_MASK)
    expect(notified).toBe(2)
    store.close()
  })

  it('lists every text a secret holds, and nothing that is not secret', () => {
    const store = openStore({ path: join(scratch.path, 'secret-values.db') })
    const plugins = createPluginStore(store)
    plugins.setSetting('a', 'token', 'alpha-secret', { secret: true })
    plugins.setSetting('b', 'pin', 4321, { secret: true })
    plugins.setSetting('c', 'creds', { user: 'bob', pass: 'hunter2', list: ['x-y'] }, { secret: true })
    plugins.setSetting('d', 'empty', '', { secret: true })
    plugins.setSetting('e', 'url', 'http://public', {})
    expect(plugins.secretValues().sort()).toEqual(['4321', 'alpha-secret', 'bob', 'hunter2', 'x-y'])
    store.close()
  })
})
