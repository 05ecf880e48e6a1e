// What the author's tool refuses, and that a refusal writes nothing: each case runs the real tool
// on real folders, a few of them through the process an author starts.
import { afterEach, beforeEach, describe, expect, it } from 'bun:test'
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { create } from 'tar'
import { pack } from '../../../sporangia/tool/pack.ts'
import { manifestOf, writeSpore } from '../germination/fixtures.ts'
import { ROOT, runTool } from './tool.ts'

const ENZYME_MODULE = `export default { create: () => ({ handlers: { go() {} } }) }\n`

let folder: string
let out: string

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'mycelo-sporangium-refusals-'))
  out = join(folder, 'sporangium')
})

afterEach(async () => {
  await rm(folder, { recursive: true, force: true })
})

/** A small enzyme spore with a package.json version, unless told otherwise. */
function spore(
  name: string,
  options: { version?: string; manifest?: object | string } = {},
): Promise<string> {
  const files: Record<string, string> = { 'src/index.ts': ENZYME_MODULE }
  if (options.version !== undefined) files['package.json'] = JSON.stringify({ version: options.version })
  return writeSpore(folder, name, { manifest: options.manifest ?? manifestOf('enzyme', name), files })
}

async function keygen(name: string): Promise<string> {
  const path = join(folder, `${name}.pem`)
  expect((await runTool(['keygen', path])).code).toBe(0)
  return path
}

const exists = (path: string) =>
  readFile(path).then(
    () => true,
    () => false,
  )

describe('pack refuses, naming the problem, and writes nothing', () => {
  it('a manifest septum refuses', async () => {
    const dir = await spore('shouty', { version: '1.0.0', manifest: { ...manifestOf('enzyme', 'Shouty') } })
    const run = await runTool(['pack', dir, '--out', out, '--name', 'Mine'])
    expect(run.code).toBe(1)
    expect(run.stderr).toStartWith(`The manifest of ${dir} is refused: name: "Shouty" is not a valid name`)
    expect(await exists(join(out, 'index.json'))).toBe(false)
    expect(await exists(join(out, 'archives', 'Shouty-1.0.0.tgz'))).toBe(false)
  })

  it('a spore with no strain: neither --strain nor a package.json version', async () => {
    const dir = await spore('bare')
    const run = await runTool(['pack', dir, '--out', out, '--name', 'Mine'])
    expect(run).toMatchObject({ code: 1, stdout: '' })
    expect(run.stderr).toBe(
      "No strain for bare: give --strain VERSION, or a version in the spore's package.json.\n",
    )
    expect(await exists(out)).toBe(false)
    // --strain supplies one; a strain that is not a semantic version is refused too.
    expect(await pack({ dir, out, name: 'Mine', strain: 'latest' })).toEqual({
      ok: false,
      refusal: { key: 'pack.badStrain', params: { strain: 'latest' } },
    })
    expect((await pack({ dir, out, name: 'Mine', strain: '2.1.0' })).ok).toBe(true)
  })

  it('a strain signed by another key than the one the index is signed by', async () => {
    const dir = await spore('signed', { version: '1.0.0' })
    const publisher = await keygen('publisher')
    const stranger = await keygen('stranger')
    expect((await pack({ dir, out, name: 'Mine', keyFile: publisher })).ok).toBe(true)
    const before = await readFile(join(out, 'index.json'), 'utf8')

    const run = await runTool(['pack', dir, '--out', out, '--key', stranger, '--strain', '1.1.0'])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(
      /^This sporangium is signed by ed25519:\S+, not by the key given \(ed25519:\S+\)/,
    )
    // Nor may a strain go in unsigned.
    expect(await pack({ dir, out, strain: '1.1.0' })).toMatchObject({
      ok: false,
      refusal: { key: 'index.needsSignature' },
    })
    expect(await readFile(join(out, 'index.json'), 'utf8')).toBe(before)
    expect(await exists(join(out, 'archives', 'signed-1.1.0.tgz'))).toBe(false)
  })

  it('a new sporangium without a name', async () => {
    const dir = await spore('nameless', { version: '1.0.0' })
    expect(await pack({ dir, out })).toEqual({ ok: false, refusal: { key: 'index.needsName' } })
    expect(await exists(out)).toBe(false)
  })

  it('an index.json that does not follow the format', async () => {
    const dir = await spore('late', { version: '1.0.0' })
    await Bun.write(join(out, 'index.json'), JSON.stringify({ format: 2, name: 'Mine', spores: {} }))
    expect(await pack({ dir, out })).toMatchObject({ ok: false, refusal: { key: 'index.invalid' } })
    expect(await exists(join(out, 'archives'))).toBe(false)
  })

  it('a spore whose code: commands have no module to run them', async () => {
    const dir = await writeSpore(folder, 'empty', { manifest: manifestOf('enzyme', 'empty') })
    expect(await pack({ dir, out, name: 'Mine', strain: '1.0.0' })).toMatchObject({
      ok: false,
      refusal: { key: 'pack.noModule' },
    })
  })
})

describe('pack', () => {
  it('keeps one entry per strain, in semantic-version order, replacing a strain packed again', async () => {
    const dir = await spore('ordered')
    for (const strain of ['1.0.10', '1.0.9', '1.0.9', '1.0.0'])
      expect((await pack({ dir, out, name: 'Mine', strain })).ok).toBe(true)
    const index = JSON.parse(await readFile(join(out, 'index.json'), 'utf8'))
    expect(Object.keys(index.spores.ordered.strains)).toEqual(['1.0.0', '1.0.9', '1.0.10'])
  })

  it('gives the same bytes for the same spore, whenever and wherever it is packed', async () => {
    // A copy elsewhere, with the packages it imports still reachable: only its place differs.
    const copy = join(ROOT, '.test-tmp', `help-copy-${process.pid}`, 'elsewhere', 'help')
    await cp(join(ROOT, 'spores', 'help'), copy, { recursive: true })
    const first = await pack({ dir: join(ROOT, 'spores', 'help'), out: join(folder, 'a'), name: 'A' })
    const second = await pack({ dir: copy, out: join(folder, 'b'), name: 'B' })
    await rm(join(copy, '..', '..'), { recursive: true, force: true })
    expect(first.ok && second.ok && first.value.sha256 === second.value.sha256).toBe(true)
  })

  it('packs an enzyme that answers with respond: only without any bundle', async () => {
    const manifest = {
      ...manifestOf('enzyme', 'echo'),
      commands: [{ name: 'ping', description: 'command.ping', respond: 'pong' }],
    }
    const dir = await writeSpore(folder, 'echo', {
      manifest,
      files: { 'translations/en.yaml': 'pong: Pong\n' },
    })
    const packed = await pack({ dir, out, name: 'Mine', strain: '1.0.0' })
    expect(packed.ok).toBe(true)
    const { list } = await import('tar')
    const entries: string[] = []
    await list({
      file: join(out, 'archives', 'echo-1.0.0.tgz'),
      onReadEntry: (entry) => entries.push(entry.path),
    })
    expect(entries.sort()).toEqual([
      'echo/',
      'echo/spore.yaml',
      'echo/translations/',
      'echo/translations/en.yaml',
    ])
  })
})

describe('verify', () => {
  let publisher: string

  beforeEach(async () => {
    publisher = await keygen('publisher')
    for (const name of ['first', 'second']) {
      const dir = await spore(name, { version: '1.0.0' })
      expect((await pack({ dir, out, name: 'Mine', keyFile: publisher })).ok).toBe(true)
    }
    expect((await runTool(['verify', out])).code).toBe(0)
  })

  it('catches an archive whose bytes were changed after publication', async () => {
    const path = join(out, 'archives', 'first-1.0.0.tgz')
    const bytes = await readFile(path)
    bytes[bytes.length - 10]! ^= 0xff
    await writeFile(path, bytes)
    const run = await runTool(['verify', out])
    expect(run.code).toBe(1)
    // The digest differs, and the changed gzip no longer reads.
    expect(run.stderr).toMatch(
      /^first 1\.0\.0: its SHA-256 is [0-9a-f]{64}, the index says [0-9a-f]{64}; its archive cannot be read: .+$/m,
    )
    expect(run.stderr).toContain('second 1.0.0: verified')
    expect(run.stderr).toContain('2 strains checked, 1 failed.')
  })

  it('catches an index whose digest and signature were swapped between strains, and a missing archive', async () => {
    const index = JSON.parse(await readFile(join(out, 'index.json'), 'utf8'))
    const [first, second] = [index.spores.first.strains['1.0.0'], index.spores.second.strains['1.0.0']]
    // Pointing `first` at second's bytes, digest and signature: every number matches, the signature cannot.
    index.spores.first.strains['1.0.0'] = { ...second, archive: first.archive }
    await writeFile(join(out, 'archives', 'first-1.0.0.tgz'), await readFile(join(out, second.archive)))
    await rm(join(out, second.archive))
    await writeFile(join(out, 'index.json'), JSON.stringify(index))
    const run = await runTool(['verify', out])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(
      'first 1.0.0: its archive holds second/, outside the one folder first/; ' +
        "its archive has no first/spore.yaml; its signature is not the publisher key's\n",
    )
    expect(run.stderr).toContain('second 1.0.0: its archive archives/second-1.0.0.tgz is missing')
  })
})

describe('verify, on an unsigned sporangium', () => {
  it('that takes a key: the strains packed before it are named as unsigned', async () => {
    const dir = await spore('growing')
    expect((await pack({ dir, out, name: 'Mine', strain: '1.0.0' })).ok).toBe(true)
    const key = await keygen('late')
    expect((await pack({ dir, out, strain: '1.1.0', keyFile: key })).ok).toBe(true)
    const index = JSON.parse(await readFile(join(out, 'index.json'), 'utf8'))
    expect(index.publisher.key).toMatch(/^ed25519:/)
    const run = await runTool(['verify', out])
    expect(run.code).toBe(1)
    expect(run.stderr).toBe(
      'growing 1.0.0: it is not signed, and the sporangium has a publisher key\n' +
        'growing 1.1.0: verified\n2 strains checked, 1 failed.\n',
    )
  })

  it('reads what an archive holds: a link, a manifest of another spore, a range the index does not name', async () => {
    const dir = await spore('first', { version: '1.0.0' })
    expect((await pack({ dir, out, name: 'Mine' })).ok).toBe(true)
    // An archive rebuilt by hand, and an index edited to its size and digest: only its contents can tell.
    const forged = join(folder, 'forged')
    await writeSpore(forged, 'first', { manifest: { ...manifestOf('enzyme', 'other'), septum: '^2.0' } })
    await symlink('/etc/passwd', join(forged, 'first', 'passwd'))
    const archive = join(out, 'archives', 'first-1.0.0.tgz')
    await create({ file: archive, cwd: forged, gzip: true }, ['first'])
    const bytes = await readFile(archive)
    const index = JSON.parse(await readFile(join(out, 'index.json'), 'utf8'))
    Object.assign(index.spores.first.strains['1.0.0'], {
      size: bytes.length,
      sha256: new Bun.CryptoHasher('sha256').update(bytes).digest('hex'),
    })
    await writeFile(join(out, 'index.json'), JSON.stringify(index))

    const run = await runTool(['verify', out])
    expect(run.code).toBe(1)
    expect(run.stderr).toBe(
      'first 1.0.0: its archive holds first/passwd, a SymbolicLink: only files and folders are installed; ' +
        'its archive holds the spore other; its manifest declares septum ^2.0, the index says ^1.0\n' +
        '1 strain checked, 1 failed.\n',
    )
  })
})

describe('keygen', () => {
  it('never overwrites a key file', async () => {
    const path = await keygen('kept')
    const before = await readFile(path, 'utf8')
    const run = await runTool(['keygen', path])
    expect(run).toMatchObject({ code: 1, stdout: '' })
    expect(run.stderr).toBe(`${path} already exists: keygen never overwrites a key. Choose another file.\n`)
    expect(await readFile(path, 'utf8')).toBe(before)
  })
})

describe('the tool speaks the author’s language', () => {
  it('in French when the terminal is French', async () => {
    const run = await runTool(['keygen', join(folder, 'missing', 'key.pem')], { LANG: 'fr_FR.UTF-8' })
    expect(run.stderr).toBe(
      `Impossible d’écrire ${join(folder, 'missing', 'key.pem')} : son dossier n’existe pas.\n`,
    )
  })

  it('with the same keys in English and French', async () => {
    const { parse } = await import('yaml')
    const { flattenCatalog } = await import('@mycelo/septum')
    const keysOf = async (locale: string) =>
      [
        ...flattenCatalog(
          locale,
          parse(await readFile(join(ROOT, 'sporangia', 'translations', `${locale}.yaml`), 'utf8')),
        ).keys(),
      ].sort()
    expect(await keysOf('fr')).toEqual(await keysOf('en'))
  })
})
