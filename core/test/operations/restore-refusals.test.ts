// A restore refuses what it must, and each refusal changes nothing on the fresh folder: an archive
// from a newer Mycelo, a file changed after the backup, a hostile path or a link, something that
// is not a backup at all, a folder that is not fresh, and a bot holding the database.
import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { create, extract } from 'tar'
import { MYCELO_VERSION } from '../../operations/backup/version.ts'
import { runCli, startBoot } from '../boot/process.ts'
import { tarOf } from '../sporangium/archive/tar-bytes.ts'
import { scratchFolder } from '../store/scratch.ts'
import { sha256Of } from '../support/publisher.ts'
import { botFolder, seedBot } from './bot.ts'

const scratch = scratchFolder('ops-restore')
afterAll(() => scratch.remove())

let archive = ''
beforeAll(async () => {
  const home = botFolder(scratch.path, 'home')
  seedBot(home)
  archive = join(scratch.path, 'home.tar.gz')
  const written = await runCli(['backup', archive], home.config)
  expect(written.code).toBe(0)
})

let count = 0
/** A fresh folder to restore into, named by its (not yet written) mycelo.yaml. */
function freshFolder(): { folder: string; config: string } {
  const folder = join(scratch.path, `fresh-${++count}`)
  mkdirSync(folder)
  return { folder, config: join(folder, 'mycelo.yaml') }
}

/** The backup unpacked, changed by `edit`, and packed again (as someone altering it would). */
async function altered(edit: (folder: string) => void): Promise<string> {
  const folder = join(scratch.path, `altered-${++count}`)
  mkdirSync(folder)
  await extract({ file: archive, cwd: folder })
  edit(folder)
  const file = `${folder}.tar.gz`
  await create({ gzip: true, file, cwd: folder, portable: true }, readdirSync(folder))
  return file
}

async function refusedRestore(file: string): Promise<string> {
  const { folder, config } = freshFolder()
  const answer = await runCli(['restore', file], config)
  expect(answer.code).toBe(1)
  expect(answer.stdout).toBe('')
  // Nothing was changed: no config, no data, no staging left behind.
  expect(readdirSync(folder)).toEqual([])
  return answer.stderr
}

describe('a restore refuses, changing nothing', () => {
  it('an archive written by a newer Mycelo, naming both versions', async () => {
    const file = await altered((folder) => {
      const path = join(folder, 'manifest.json')
      const manifest = JSON.parse(readFileSync(path, 'utf8'))
      writeFileSync(path, JSON.stringify({ ...manifest, mycelo: '99.0.0' }))
    })
    expect(await refusedRestore(file)).toBe(
      `${file} was written by Mycelo 99.0.0, newer than this Mycelo ${MYCELO_VERSION}. Upgrade Mycelo first. Nothing was changed.\n`,
    )
  })

  it('a database written by a newer Mycelo, in the store’s own words', async () => {
    const file = await altered((folder) => {
      const path = join(folder, 'database', 'mycelo.db')
      const sqlite = new Database(path)
      sqlite
        .query('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)')
        .run('f'.repeat(64), Date.UTC(2100, 0, 1))
      sqlite.close()
      // Rehashed, as a real newer backup would be: the database itself is what is refused.
      const manifestPath = join(folder, 'manifest.json')
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'))
      const bytes = readFileSync(path)
      manifest.files['database/mycelo.db'] = { sha256: sha256Of(bytes), bytes: bytes.length }
      writeFileSync(manifestPath, JSON.stringify(manifest))
    })
    expect(await refusedRestore(file)).toBe(
      `The database inside the backup is refused: the database at ${file}:database/mycelo.db was written by a newer Mycelo (migration ffffffffffff of 2100-01-01T00:00:00.000Z); upgrade Mycelo or restore a backup. Nothing was changed.\n`,
    )
  })

  it('a file changed after the backup was written', async () => {
    const file = await altered((folder) => {
      writeFileSync(join(folder, 'mycelo.yaml'), 'spores: [spores]\ndatabase: /tmp/elsewhere.db\n')
    })
    expect(await refusedRestore(file)).toBe(
      `${file} was changed after it was written: mycelo.yaml does not match the hash in its manifest. Nothing was changed.\n`,
    )
  })

  it('a file its manifest does not list', async () => {
    const file = await altered((folder) => {
      writeFileSync(join(folder, 'spores', 'greeter', 'extra.ts'), 'export {}\n')
    })
    expect(await refusedRestore(file)).toBe(
      `${file} holds spores/greeter/extra.ts, which its manifest does not list. Nothing was changed.\n`,
    )
  })

  it('a path that climbs out, and a symbolic link', async () => {
    const climbing = join(scratch.path, 'climbing.tar.gz')
    writeFileSync(climbing, gzipSync(tarOf([{ name: '../escaped.txt', data: 'out' }])))
    expect(await refusedRestore(climbing)).toBe(
      'The archive of "climbing.tar.gz" holds a path that climbs out of its folder: ../escaped.txt\n',
    )
    expect(existsSync(join(scratch.path, 'escaped.txt'))).toBe(false)
    const linked = join(scratch.path, 'linked.tar.gz')
    writeFileSync(linked, gzipSync(tarOf([{ name: 'mycelo.yaml', type: '2', linkname: '/etc/passwd' }])))
    expect(await refusedRestore(linked)).toBe(
      'The archive of "linked.tar.gz" holds a symbolic link: mycelo.yaml\n',
    )
  })

  it('a file that is not an archive, and an archive that is not a backup', async () => {
    const text = join(scratch.path, 'notes.txt')
    writeFileSync(text, 'not an archive at all\n')
    expect(await refusedRestore(text)).toBe(
      'The archive of "notes.txt" is not a complete gzip file: it is truncated or damaged.\n',
    )
    const other = join(scratch.path, 'other.tar.gz')
    writeFileSync(other, gzipSync(tarOf([{ name: 'readme.txt', data: 'hello' }])))
    expect(await refusedRestore(other)).toBe(
      `${other} is not a Mycelo backup: it has no readable manifest. Nothing was changed.\n`,
    )
  })

  it('a folder that already holds a database', async () => {
    const { config, folder } = freshFolder()
    mkdirSync(join(folder, 'data'))
    writeFileSync(join(folder, 'data', 'mycelo.db'), 'someone else’s bot')
    const answer = await runCli(['restore', archive], config)
    expect(answer.code).toBe(1)
    expect(answer.stderr).toBe(
      `Nothing was changed: ${join(folder, 'data', 'mycelo.db')} already exists. A backup is restored on a fresh folder: move it aside first.\n`,
    )
    expect(readdirSync(folder)).toEqual(['data'])
    expect(readFileSync(join(folder, 'data', 'mycelo.db'), 'utf8')).toBe('someone else’s bot')
  })

  it('an existing mycelo.yaml, saying what would replace it, unless told --replace-config', async () => {
    const { config, folder } = freshFolder()
    const mine =
      '# my own\nspores: [spores, data/spores]\ndatabase: data/mycelo.db\nprefix: "!"\nhttp: { port: 9000 }\n'
    writeFileSync(config, mine)
    const answer = await runCli(['restore', archive], config)
    expect(answer.code).toBe(1)
    expect(answer.stderr).toBe(
      `Nothing was changed: ${config} already exists, and the backup's mycelo.yaml would replace it (it differs in: http, prefix). Run the restore again with --replace-config to replace it (the present file is kept as mycelo.yaml.before-restore), or move it aside first.\n`,
    )
    expect(readdirSync(folder)).toEqual(['mycelo.yaml'])
    expect(readFileSync(config, 'utf8')).toBe(mine)

    const replaced = await runCli(['restore', '--replace-config', archive], config)
    expect(replaced.stderr).toBe('')
    expect(replaced.code).toBe(0)
    expect(readFileSync(config, 'utf8')).toBe('spores: [spores, data/spores]\ndatabase: data/mycelo.db\n')
    expect(readFileSync(`${config}.before-restore`, 'utf8')).toBe(mine)
    expect(existsSync(join(folder, 'data', 'mycelo.db'))).toBe(true)
  })

  it("nothing over a mycelo.yaml that is the backup's own", async () => {
    const { config, folder } = freshFolder()
    writeFileSync(config, 'spores: [spores, data/spores]\ndatabase: data/mycelo.db\n')
    const answer = await runCli(['restore', archive], config)
    expect(answer.code).toBe(0)
    expect(existsSync(join(folder, 'mycelo.yaml.before-restore'))).toBe(false)
  })

  it('while a bot holds the database, naming it', async () => {
    const bot = botFolder(scratch.path, 'running')
    const boot = startBoot(bot.config)
    try {
      await boot.waitFor('Mycelo is running')
      const answer = await runCli(['restore', archive], bot.config)
      expect(answer.code).toBe(1)
      expect(answer.stderr).toStartWith(
        `Nothing was changed: another Mycelo is already using the database ${bot.database}: process ${boot.child.pid},`,
      )
      expect(answer.stderr).toEndWith('Stop that bot first.\n')
    } finally {
      boot.child.kill('SIGTERM')
      await boot.exited()
    }
  })
})
