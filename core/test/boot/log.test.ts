import { afterAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { createLogging } from '../../boot/log.ts'
import { createPluginStore, openStore } from '../../store/index.ts'
import { scratchFolder } from '../store/scratch.ts'

const scratch = scratchFolder('log')
afterAll(() => scratch.remove())

function collect(options: { pretty: boolean; level?: string }) {
  const lines: string[] = []
  const logging = createLogging({ ...options, output: { write: (text) => lines.push(text) } })
  return { logging, lines }
}

describe('logging', () => {
  it('writes JSON lines with the child bindings and meta of a spore-scoped logger', () => {
    const { logging, lines } = collect({ pretty: false, level: 'debug' })
    const spore = logging.logger.child({ spore: 'radarr' }).child({ request: 7 })
    spore.debug('looking up', { title: 'Alien' })
    spore.error('failed')
    const [first, second] = lines.map((line) => JSON.parse(line))
    expect(first).toMatchObject({ level: 20, spore: 'radarr', request: 7, title: 'Alien', msg: 'looking up' })
    expect(second).toMatchObject({ level: 50, spore: 'radarr', msg: 'failed' })
  })

  it('honours the level: debug lines are dropped at info', () => {
    const { logging, lines } = collect({ pretty: false })
    logging.logger.debug('hidden')
    logging.logger.warn('shown')
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual(['shown'])
  })

  it('never prints a secret setting, wherever a spore puts it', () => {
    const store = openStore({ path: join(scratch.path, 'secrets.db') })
    const { logging, lines } = collect({ pretty: false })
    const plugins = createPluginStore(store, {
      onSecretWritten: () => logging.setSecrets(plugins.secretValues()),
    })
    plugins.setSetting('radarr', 'apiKey', 'sk-live-4f9a"quoted\\slash', { secret: true })
    plugins.setSetting('radarr', 'url', 'http://127.0.0.1:7878')
    const spore = logging.logger.child({ spore: 'radarr' })
    const key = plugins.settingsOf('radarr').apiKey as string
    spore.info(`calling with ${key}`, { headers: { 'X-Api-Key': key }, url: 'http://127.0.0.1:7878' })
    spore.warn('request failed', { err: new Error(`401 for ${key}`) })
    const output = lines.join('')
    expect(output).not.toContain('sk-live-4f9a')
    const [call, failure] = lines.map((line) => JSON.parse(line))
    expect(call.msg).toBe('calling with ••••')
    expect(call.headers).toEqual({ 'X-Api-Key': '••••' })
    expect(call.url).toBe('http://127.0.0.1:7878')
    expect(failure.err.message).toBe('401 for ••••')
    store.close()
  })

  it('masks secrets in readable terminal lines too', () => {
    const { logging, lines } = collect({ pretty: true })
    logging.setSecrets(['hunter2'])
    logging.logger.child({ spore: 'discord' }).info('token hunter2 accepted', { token: 'hunter2' })
    const output = lines.join('')
    expect(output).toContain('INFO')
    expect(output).toContain('token •••• accepted')
    expect(output).toContain('spore: "discord"')
    expect(output).not.toContain('hunter2')
    expect(() => JSON.parse(lines[0]!)).toThrow()
  })

  it('forgets a value that is no longer secret when the set is replaced', () => {
    const { logging, lines } = collect({ pretty: false })
    logging.setSecrets(['old-token'])
    logging.setSecrets(['new-token'])
    logging.logger.info('old-token new-token')
    expect(JSON.parse(lines[0]!).msg).toBe('old-token ••••')
  })
})
