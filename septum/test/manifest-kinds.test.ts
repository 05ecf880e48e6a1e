import { describe, it } from 'bun:test'
import { enzyme, expectRefusal } from './manifest-refusal.ts'

const withCommands = (...commands: unknown[]) => enzyme({ commands })
const code = (fields: Record<string, unknown> = {}) => ({
  name: 'add',
  description: 'd',
  code: 'addMovie',
  ...fields,
})
const respond = (fields: Record<string, unknown> = {}) => ({
  name: 'help',
  description: 'd',
  respond: 'help.text',
  ...fields,
})
const withArgs = (...args: unknown[]) => withCommands(code({ args }))

describe('hypha capabilities', () => {
  const hypha = (capabilities: unknown) => ({ kind: 'hypha', name: 'signal', septum: '^1.0', capabilities })

  it('refuses an unknown capability, naming it', () => {
    expectRefusal(hypha(['reactions', 'video']), 'capabilities.1', '"video" is not a channel capability')
  })

  it('refuses capabilities that are not a list', () => {
    expectRefusal(hypha('threads'), 'capabilities', 'must be a list of channel capabilities')
  })
})

describe('inhibitor enforcing', () => {
  it('refuses enforcing that is not a boolean', () => {
    const inhibitor = { kind: 'inhibitor', name: 'allowlist', septum: '^1.0', enforcing: 'yes' }
    expectRefusal(inhibitor, 'enforcing', 'must be true or false, not the text "yes"')
  })
})

describe('enzyme commands', () => {
  it('refuses an enzyme without commands', () => {
    expectRefusal(
      enzyme({ commands: undefined }),
      'commands',
      'is missing; an enzyme declares at least one command',
    )
  })

  it('refuses an empty commands list', () => {
    expectRefusal(withCommands(), 'commands', 'is empty; an enzyme declares at least one command')
  })

  it('refuses commands that are not a list', () => {
    expectRefusal(enzyme({ commands: { help: {} } }), 'commands', 'must be a list of commands, not a mapping')
  })

  it('refuses a command that is not a mapping', () => {
    expectRefusal(
      withCommands('help'),
      'commands.0',
      'must be a mapping with a name, a description and respond or code',
    )
  })

  it('refuses a command with both respond and code', () => {
    expectRefusal(
      withCommands(respond(), code({ respond: 'add.text' })),
      'commands.1',
      'commands.1: a command carries exactly one of respond or code, not both',
    )
  })

  it('refuses a command with neither respond nor code', () => {
    expectRefusal(withCommands({ name: 'help', description: 'd' }), 'commands.0', 'this one has neither')
  })

  it('refuses args on a respond command, explaining why', () => {
    expectRefusal(
      withCommands(respond({ args: [{ name: 'title', description: 'a' }] })),
      'commands.0.args',
      'respond answers with a catalogue key and has no way to interpolate an arg',
    )
  })

  it('refuses two commands with the same name', () => {
    expectRefusal(
      withCommands(respond({ name: 'add' }), code()),
      'commands.1.name',
      '"add" is declared twice; command names are unique within a manifest',
    )
  })

  it('refuses a command name outside the name pattern', () => {
    expectRefusal(withCommands(respond({ name: 'Help' })), 'commands.0.name', '"Help" is not a valid name')
  })

  it('refuses a command without a name', () => {
    expectRefusal(
      withCommands({ description: 'd', respond: 'r' }),
      'commands.0.name',
      'every command has a name',
    )
  })

  it('refuses a command without a description', () => {
    expectRefusal(
      withCommands({ name: 'help', respond: 'r' }),
      'commands.0.description',
      'every command has a description',
    )
  })

  it('refuses an empty command description', () => {
    expectRefusal(
      withCommands(respond({ description: '' })),
      'commands.0.description',
      'must not be empty: it is a catalogue key',
    )
  })

  it('refuses an empty respond key', () => {
    expectRefusal(
      withCommands(respond({ respond: '' })),
      'commands.0.respond',
      'the catalogue key the command answers with',
    )
  })

  it('refuses a respond that is not text', () => {
    expectRefusal(
      withCommands(respond({ respond: 3 })),
      'commands.0.respond',
      'must be a catalogue key, not 3',
    )
  })

  it('refuses an empty code name', () => {
    expectRefusal(withCommands(code({ code: '' })), 'commands.0.code', 'names the handler the module exports')
  })

  it('refuses an unknown capability on a command, naming it', () => {
    expectRefusal(
      withCommands(code({ capabilities: ['voice'] })),
      'commands.0.capabilities.0',
      '"voice" is not a channel capability',
    )
  })

  it('refuses an unknown command key, naming it', () => {
    expectRefusal(withCommands(code({ handler: 'x' })), 'commands.0.handler', 'is not a command field')
  })
})

describe('args', () => {
  it('refuses args that are not a list', () => {
    expectRefusal(withCommands(code({ args: 'title' })), 'commands.0.args', 'must be a list of args')
  })

  it('refuses an arg that is not a mapping', () => {
    expectRefusal(withArgs('title'), 'commands.0.args.0', 'must be a mapping with a name and a description')
  })

  it('refuses an arg without a name', () => {
    expectRefusal(withArgs({ description: 'a' }), 'commands.0.args.0.name', 'every arg has a name')
  })

  it('refuses an arg name outside the name pattern', () => {
    expectRefusal(
      withArgs({ name: 'Title', description: 'a' }),
      'commands.0.args.0.name',
      '"Title" is not a valid name',
    )
  })

  it('refuses an arg without a description', () => {
    expectRefusal(withArgs({ name: 'title' }), 'commands.0.args.0.description', 'every arg has a description')
  })

  it('refuses an empty arg description', () => {
    expectRefusal(
      withArgs({ name: 'title', description: '' }),
      'commands.0.args.0.description',
      'must not be empty',
    )
  })

  it('refuses required that is not a boolean', () => {
    expectRefusal(
      withArgs({ name: 'title', description: 'a', required: 1 }),
      'commands.0.args.0.required',
      'must be true or false, not 1',
    )
  })

  it('refuses two args with the same name', () => {
    expectRefusal(
      withArgs({ name: 'title', description: 'a' }, { name: 'title', description: 'b' }),
      'commands.0.args.1.name',
      '"title" is declared twice; arg names are unique within a command',
    )
  })

  it('refuses an unknown arg key, naming it', () => {
    expectRefusal(
      withArgs({ name: 'title', description: 'a', default: 'x' }),
      'commands.0.args.0.default',
      'is not an arg field',
    )
  })
})
