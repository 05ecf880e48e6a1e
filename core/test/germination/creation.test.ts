import { describe, expect, it } from 'bun:test'
import {
  germinateIn,
  lifecycleModule,
  manifestOf,
  resetJournal,
  SqliteStore,
  scratchRoot,
  sporeNamed,
  writeSpore,
} from './fixtures.ts'

const root = scratchRoot()

const germinateOne = async (name: string) => {
  const { germination } = await germinateIn(root(), SqliteStore.enabling(name))
  return sporeNamed(germination, name)
}
const module = (body: string) => `export default { create: () => (${body}) }\n`
const healthy = `async health() { return { state: 'healthy', checkedAt: new Date() } }`

describe('create()', () => {
  it('is called once per germination for a usable spore', async () => {
    await writeSpore(root(), 'once', {
      manifest: manifestOf('rhiza', 'once'),
      files: { 'src/index.ts': lifecycleModule('rhiza', 'once') },
    })
    const journal = resetJournal()

    const spore = await germinateOne('once')

    expect(spore.state).toBe('live')
    expect(journal).toEqual(['once:create'])
  })

  it('makes a spore whose create() throws dormant, with the error', async () => {
    await writeSpore(root(), 'fragile', {
      manifest: manifestOf('rhiza', 'fragile'),
      files: { 'src/index.ts': lifecycleModule('rhiza', 'fragile', { fail: 'create' }) },
    })

    const spore = await germinateOne('fragile')

    expect(spore.state).toBe('dormant')
    expect(spore.reason).toBe('create() failed: fragile create broke')
    expect(spore.instance).toBeUndefined()
  })

  it('awaits a create() that answers a promise', async () => {
    await writeSpore(root(), 'later', {
      manifest: manifestOf('inhibitor', 'later'),
      files: {
        'src/index.ts': `export default { create: async () => ({ inspect: () => ({ allow: true }) }) }\n`,
      },
    })

    expect((await germinateOne('later')).state).toBe('live')
  })

  it('makes a spore whose create() answers no object dormant', async () => {
    await writeSpore(root(), 'empty', {
      manifest: manifestOf('inhibitor', 'empty'),
      files: { 'src/index.ts': module('undefined') },
    })

    expect((await germinateOne('empty')).reason).toBe('create() returned undefined instead of an object')
  })
})

describe('what each kind needs', () => {
  it('makes a hypha without send() dormant', async () => {
    await writeSpore(root(), 'mute', {
      manifest: manifestOf('hypha', 'mute'),
      files: { 'src/index.ts': module('{ async connect() {}, async listen() {}, async stop() {} }') },
    })

    expect((await germinateOne('mute')).reason).toBe('the hypha implementation lacks send()')
  })

  it('makes a hypha declaring group_membership without listGroupMembers() dormant', async () => {
    await writeSpore(root(), 'groups', {
      manifest: manifestOf('hypha', 'groups', { capabilities: ['group_membership'] }),
      files: { 'src/index.ts': lifecycleModule('hypha', 'groups') },
    })

    expect((await germinateOne('groups')).reason).toBe(
      'the hypha implementation lacks listGroupMembers() (it declares group_membership)',
    )
  })

  it('makes a rhiza without health() or an api dormant, naming both', async () => {
    await writeSpore(root(), 'bare', {
      manifest: manifestOf('rhiza', 'bare'),
      files: { 'src/index.ts': module('{ async start() {}, async stop() {} }') },
    })

    expect((await germinateOne('bare')).reason).toBe(
      'the rhiza implementation lacks health(), an api property',
    )
  })

  it('accepts a rhiza whose methods and api come from a class', async () => {
    await writeSpore(root(), 'classy', {
      manifest: manifestOf('rhiza', 'classy'),
      files: {
        'src/index.ts': `class Classy {
  async start() {}
  async stop() {}
  ${healthy}
  get api() { return { kind: 'classy' } }
}
export default { create: () => new Classy() }
`,
      },
    })

    expect((await germinateOne('classy')).state).toBe('live')
  })

  it('makes an enzyme without the handler a code: command names dormant, naming it', async () => {
    await writeSpore(root(), 'radarr-helper', {
      manifest: manifestOf('enzyme', 'radarr-helper', {
        commands: [
          { name: 'help', description: 'command.help.description', respond: 'help.text' },
          { name: 'add', description: 'command.add.description', code: 'addMovie' },
          { name: 'list', description: 'command.list.description', code: 'listMovies' },
        ],
      }),
      files: { 'src/index.ts': module('{ handlers: { listMovies() {} } }') },
    })

    expect((await germinateOne('radarr-helper')).reason).toBe(
      'the enzyme implementation lacks a handler "addMovie" (for command "add")',
    )
  })

  it('makes an inhibitor without inspect() dormant', async () => {
    await writeSpore(root(), 'blind', {
      manifest: manifestOf('inhibitor', 'blind'),
      files: { 'src/index.ts': module('{ async start() {} }') },
    })

    expect((await germinateOne('blind')).reason).toBe('the inhibitor implementation lacks inspect()')
  })
})
