// Every file holding secrets in plain is the operator's alone, whatever the umask: the database and
// its WAL and SHM, the log file and its rotations, a backup, an export with secrets or data, and
// the database a restore puts back; the folders made for them are 0700.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadConfig } from '../../boot/config.ts'
import { RotatingLogFile } from '../../boot/log-file.ts'
import { writeBackup } from '../../operations/backup/backup.ts'
import { restoreBackup } from '../../operations/restore/restore.ts'
import { createPluginStore, openStore } from '../../store/index.ts'
import { runCli } from '../boot/process.ts'
import { scratchFolder } from '../store/scratch.ts'
import { botFolder, seedBot, withStore } from './bot.ts'

const scratch = scratchFolder('file-modes')
let umask: number
beforeAll(() => {
  // The most permissive umask there is: nothing is taken off what the bot asks for.
  umask = process.umask(0)
})
afterAll(() => {
  process.umask(umask)
  scratch.remove()
})

const mode = (path: string) => statSync(path).mode & 0o777

describe('the database', () => {
  it('is created 0600 with its WAL and SHM, in a data folder created 0700', () => {
    const database = join(scratch.path, 'fresh', 'data', 'mycelo.db')
    const store = openStore({ path: database })
    try {
      createPluginStore(store).setSetting('console', 'token', 's3cret', { secret: true })
      expect(mode(database)).toBe(0o600)
      expect(mode(`${database}-wal`)).toBe(0o600)
      expect(mode(`${database}-shm`)).toBe(0o600)
      expect(mode(join(scratch.path, 'fresh', 'data'))).toBe(0o700)
      expect(mode(join(scratch.path, 'fresh'))).toBe(0o700)
    } finally {
      store.close()
    }
  })

  it('is made 0600 again when it was left readable to others', () => {
    const folder = join(scratch.path, 'loose')
    mkdirSync(folder, { mode: 0o755 })
    const database = join(folder, 'mycelo.db')
    writeFileSync(database, '', { mode: 0o644 })
    openStore({ path: database }).close()
    expect(mode(database)).toBe(0o600)
    // A folder the operator made stays as they made it: it may be their home.
    expect(mode(folder)).toBe(0o755)
  })
})

describe('the log file', () => {
  it('is created 0600, and so is each fresh file after a rotation', () => {
    const file = join(scratch.path, 'logs', 'mycelo.log')
    const log = new RotatingLogFile({ file, maxBytes: 64, keep: 2 })
    log.write(`${'x'.repeat(60)}\n`)
    log.write(`${'y'.repeat(60)}\n`)
    log.close()
    expect(mode(file)).toBe(0o600)
    expect(mode(`${file}.1`)).toBe(0o600)
    expect(mode(join(scratch.path, 'logs'))).toBe(0o700)
  })
})

describe('backups, exports and restores', () => {
  it('writes a backup 0600, restores its database 0600, and exports with secrets or data 0600', async () => {
    const bot = botFolder(scratch.path, 'bot')
    withStore(bot.database, () => {})
    seedBot(bot)
    const config = loadConfig({ path: bot.config, env: {} })
    const archive = join(scratch.path, 'backups', 'bot.tar.gz')
    const done = await writeBackup({ config, file: archive })
    expect(done.ok).toBe(true)
    expect(mode(archive)).toBe(0o600)

    const elsewhere = join(scratch.path, 'restored')
    mkdirSync(elsewhere)
    const restored = await restoreBackup({ archive, env: { MYCELO_CONFIG: join(elsewhere, 'mycelo.yaml') } })
    expect(restored.ok).toBe(true)
    if (!restored.ok) return
    expect(mode(restored.config.database)).toBe(0o600)
    expect(mode(join(elsewhere, 'data'))).toBe(0o700)

    // An export over a file already readable to others: with secrets it is closed all the same.
    const exported = join(scratch.path, 'bot.yaml')
    writeFileSync(exported, '', { mode: 0o644 })
    const answer = await runCli(['export', '--secrets', exported], bot.config)
    expect(answer.code).toBe(0)
    expect(mode(exported)).toBe(0o600)
    const withData = join(scratch.path, 'data.yaml')
    expect((await runCli(['export', '--data', withData], bot.config)).code).toBe(0)
    expect(mode(withData)).toBe(0o600)
  })
})
