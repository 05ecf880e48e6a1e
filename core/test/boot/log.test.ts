import { afterAll, describe, expect, it } from 'bun:test'
import { closeSync, openSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { manualSchedule, memoryStorage } from '@mycelo/septum/conformance'
import { DiscordHypha } from '../../../spores/discord/src/hypha.ts'
import { startFakeDiscord } from '../../../spores/discord/test/fake/index.ts'
import { createLogging, type Logging } from '../../boot/log.ts'
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

  it('writes any meta as JSON: an Error anywhere with its message and stack, a bigint as digits, a cycle named', () => {
    const { logging, lines } = collect({ pretty: false })
    const loop: { name: string; self?: unknown; list?: unknown[] } = { name: 'loop' }
    loop.self = loop
    loop.list = [loop, { shared: true }]
    const cause = new Error('socket closed')
    logging.logger.error('send failed', {
      failure: { error: new Error('timeout', { cause }), code: 'ETIMEDOUT' },
      bytes: 12n,
      loop,
    })
    const [line] = lines.map((text) => JSON.parse(text))
    expect(line.failure.error).toMatchObject({
      type: 'Error',
      message: 'timeout',
      cause: { message: 'socket closed' },
    })
    expect(line.failure.error.stack).toContain('timeout')
    expect(line.failure.code).toBe('ETIMEDOUT')
    expect(line.bytes).toBe('12')
    expect(line.loop).toEqual({ name: 'loop', self: '[Circular]', list: ['[Circular]', { shared: true }] })
    expect(line).toMatchObject({ level: 50, pid: process.pid, msg: 'send failed' })
  })

  it('writes nothing at all when silent', () => {
    const { logging, lines } = collect({ pretty: false, level: 'silent' })
    logging.logger.error('unheard')
    expect(lines).toEqual([])
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

let files = 0
/** The real logger writing JSON to a file descriptor, and the lines it wrote, each parsed back. */
function toFile(level = 'info') {
  const path = join(scratch.path, `log-${++files}.jsonl`)
  const fd = openSync(path, 'w')
  const logging = createLogging({ level, fd, pretty: false })
  const read = () => {
    const text = readFileSync(path, 'utf8')
    return {
      text,
      lines: text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    }
  }
  return { logging, read, close: () => closeSync(fd) }
}

describe('the redactor masks whole secret values only', () => {
  it('keeps every line valid JSON with a one-character secret, masking it only where it is a whole value', () => {
    const { logging, read, close } = toFile()
    // A secret may even spell one of pino's own keys: the line keeps its shape.
    logging.setSecrets(['7', 'msg'])
    logging.logger.info('released 1.7.3 to 27 servers on port 7878', {
      word: 'msg',
      code: '7',
      count: 7,
      port: 7878,
      list: ['7', 'x7', 'v7.0'],
    })
    close()
    const { lines } = read()
    expect(lines).toHaveLength(1)
    const [line] = lines
    expect(line.msg).toBe('released 1.7.3 to 27 servers on port 7878')
    expect(line).toMatchObject({
      level: 30,
      pid: process.pid,
      word: '••••',
      code: '••••',
      count: '••••',
      port: 7878,
    })
    expect(line.list).toEqual(['••••', 'x7', 'v7.0'])
    expect(typeof line.time).toBe('number')
  })

  it('masks a secret standing as a token of its own, not the same letters inside a longer word', () => {
    const { logging, read, close } = toFile()
    logging.setSecrets(['hunter2', 'sk-0123456789abcdef'])
    logging.logger.info('hunter2, hunter22, xhunter2 and (hunter2)')
    logging.logger.info('long ones go anywhere: key_sk-0123456789abcdef_end')
    logging.logger.info('as a key too', { hunter2: true, nested: [{ deep: 'Bearer hunter2' }] })
    close()
    const [short, long, keyed] = read().lines
    expect(short.msg).toBe('••••, hunter22, xhunter2 and (••••)')
    expect(long.msg).toBe('long ones go anywhere: key_••••_end')
    expect(keyed['••••']).toBe(true)
    expect(keyed.nested).toEqual([{ deep: 'Bearer ••••' }])
  })

  it('masks a secret inside a serialized body, where its quotes and backslashes are escaped', () => {
    const { logging, read, close } = toFile()
    const secret = 'pa"ss\\word-42'
    logging.setSecrets([secret])
    logging.logger.info(`sent ${JSON.stringify({ password: secret })}`)
    close()
    const { text, lines } = read()
    expect(text).not.toContain('word-42')
    expect(lines[0].msg).toBe('sent {"password":"••••"}')
  })
})

describe('a Discord bot token in discord.js debug output', () => {
  // Three dot-separated parts: the bot's user id in base64, a timestamp, and the HMAC.
  const userId = '1122334455667788990'
  const idPart = Buffer.from(userId).toString('base64').replace(/=+$/, '')
  const token = `${idPart}.GhQ1aB.${'Zq3vT8pLm2Xw9RkY4bN7cJ5dF1hS6gA0eU_oI-'}`

  async function connectWith(logging: Logging) {
    const fake = startFakeDiscord({ token, heartbeatInterval: 500 })
    const hypha = new DiscordHypha()
    try {
      await hypha.connect({
        config: { token, apiBaseUrl: fake.restApi },
        logger: logging.logger.child({ spore: 'discord' }),
        rhiza: <T>() => ({}) as T,
        has: () => false,
        storage: memoryStorage(),
        schedule: manualSchedule(),
        emit: async () => undefined,
      })
    } finally {
      await hypha.stop()
      await fake.stop()
    }
  }

  it('never reaches a log line, neither whole nor by the part that identifies the bot', async () => {
    const { logging, read, close } = toFile('debug')
    logging.setSecrets([token])
    await connectWith(logging)
    close()
    const { text, lines } = read()
    expect(text).not.toContain(idPart)
    expect(text).not.toContain(token.split('.')[2])
    // discord.js did log the token, censored by itself; the line is there with nothing to identify it.
    const provided = lines.find((line) => String(line.msg).startsWith('discord: Provided token:'))
    expect(provided?.msg).toBe('discord: Provided token: ••••.GhQ1aB.**************************************')
    expect(lines.some((line) => line.msg === 'discord connected')).toBe(true)
  })
})
