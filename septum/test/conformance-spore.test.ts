import { describe, expect, it } from 'bun:test'
import type {
  ConfigSchema,
  InhibitorContext,
  InhibitorModule,
  RhizaContext,
  RhizaModule,
} from '@mycelo/septum'
import { enzymeChecks, inhibitorChecks, rhizaChecks } from '@mycelo/septum/conformance'
import { z } from 'zod'
import { defineConfig } from '../src/config/index.ts'
import { inhibitorContext as allowingContext, enzymeContext } from './fixtures/conformance/contexts.ts'
import { loadSpore } from './fixtures/conformance/load-spore.ts'

const inhibitorContext =
  (allowed: readonly string[] = ['alice']) =>
  (): InhibitorContext<{ allowed: readonly string[] }> =>
    allowingContext({ allowed })

const respondManifest = { kind: 'enzyme', name: 'ping', septum: '^1.0', commands: [] as unknown[] }
respondManifest.commands.push({ name: 'ping', description: 'ping.description', respond: 'pong' })

async function allowlist() {
  const spore = await loadSpore('allowlist')
  return { manifest: spore.manifest, module: spore.module as InhibitorModule<{ allowed: readonly string[] }> }
}

describe('manifest checks, shared by all four kits', () => {
  it('fails a manifest the schema refuses, naming the field', async () => {
    const failures = await enzymeChecks({
      name: 'ping',
      manifest: {
        ...respondManifest,
        commands: [{ name: 'ping', description: 'd', respond: 'pong', code: 'ping' }],
      },
      context: enzymeContext,
    })
    expect(failures).toEqual([
      'manifest: field "commands.0" is refused: a command carries exactly one of respond or code, not both',
    ])
  })

  it('fails a manifest that is not a mapping at all', async () => {
    const failures = await enzymeChecks({ name: 'ping', manifest: null, context: enzymeContext })
    expect(failures).toHaveLength(1)
    expect(failures[0]).toStartWith('manifest: refused: ')
    expect(failures[0]).toContain('not null')
  })

  it('fails a manifest of another kind, naming both kinds', async () => {
    const { module } = await allowlist()
    const rhizaModule = module as unknown as RhizaModule
    const failures = await rhizaChecks({
      name: 'allowlist',
      manifest: (await allowlist()).manifest,
      module: rhizaModule,
      context: (): RhizaContext => inhibitorContext()(),
    })
    expect(failures).toEqual(['manifest: kind is "inhibitor", but rhizaChecks checks a rhiza'])
  })

  it('fails a manifest whose name is not the expected one', async () => {
    const failures = await enzymeChecks({ name: 'pong', manifest: respondManifest, context: enzymeContext })
    expect(failures).toEqual(['manifest: name is "ping", expected "pong"'])
  })

  it('fails a septum range that excludes the running septum, as germination would', async () => {
    const failures = await enzymeChecks({
      name: 'ping',
      manifest: { ...respondManifest, septum: '^0.10' },
      context: enzymeContext,
    })
    expect(failures).toEqual([
      'manifest: the bot would refuse this spore: septum range "^0.10" excludes septum 1.1.0, ' +
        'the version the core is running; write a caret range such as ^1.1',
    ])
  })

  it('fails a septum range too wide to tell one septum from another, naming the field', async () => {
    const failures = await enzymeChecks({
      name: 'ping',
      manifest: { ...respondManifest, septum: '>=0.0.1' },
      context: enzymeContext,
    })
    expect(failures).toHaveLength(1)
    expect(failures[0]).toStartWith('manifest: field "septum" is refused: septum range ">=0.0.1" is too wide')
  })

  it('checks the range against septumVersion when given', async () => {
    const manifest = { ...respondManifest, septum: '^0.10' }
    expect(
      await enzymeChecks({ name: 'ping', manifest, context: enzymeContext, septumVersion: '0.10.4' }),
    ).toEqual([])
    const failures = await enzymeChecks({
      name: 'ping',
      manifest,
      context: enzymeContext,
      septumVersion: '0.11.0',
    })
    expect(failures).toHaveLength(1)
    expect(failures[0]).toContain('excludes septum 0.11.0')
  })
})

describe('config schema checks', () => {
  it('passes when the config is accepted and invalidConfig refused with path and message', async () => {
    const { manifest, module } = await allowlist()
    const failures = await inhibitorChecks({
      name: 'allowlist',
      manifest,
      module,
      context: inhibitorContext(),
      config: { allowed: ['alice'] },
      invalidConfig: { allowed: 'alice' },
      expectations: [],
    })
    expect(failures).toEqual([])
  })

  it('fails a valid config the schema refuses, listing its issues', async () => {
    const { manifest, module } = await allowlist()
    const failures = await inhibitorChecks({
      name: 'allowlist',
      manifest,
      module,
      context: inhibitorContext(),
      config: { allow: ['alice'] },
      expectations: [],
    })
    expect(failures).toEqual([
      'configSchema: refused the valid config: allowed: allowed must list sender ids',
    ])
  })

  it('fails an invalidConfig the schema accepts', async () => {
    const { manifest, module } = await allowlist()
    const failures = await inhibitorChecks({
      name: 'allowlist',
      manifest,
      module,
      context: inhibitorContext(),
      invalidConfig: { allowed: [] },
      expectations: [],
    })
    expect(failures).toEqual(['configSchema: accepted invalidConfig, which it should refuse'])
  })

  it('fails a refusal whose issues lack a path array or a message string', async () => {
    const sloppy: ConfigSchema = {
      safeParse: () =>
        ({ success: false, error: { issues: [{ path: 'apiKey', message: 42 }] } }) as unknown as ReturnType<
          ConfigSchema['safeParse']
        >,
    }
    const failures = await enzymeChecks({
      name: 'ping',
      manifest: respondManifest,
      module: { configSchema: sloppy, create: () => ({ handlers: {} }) },
      context: enzymeContext,
      invalidConfig: {},
    })
    expect(failures).toEqual([
      'configSchema: issue 0 of the refusal has no path array (empty for the whole object)',
      'configSchema: issue 0 of the refusal has no message string',
    ])
  })

  it('fails a refusal with no issues at all', async () => {
    const silent: ConfigSchema = { safeParse: () => ({ success: false, error: { issues: [] } }) }
    const failures = await enzymeChecks({
      name: 'ping',
      manifest: respondManifest,
      module: { configSchema: silent, create: () => ({ handlers: {} }) },
      context: enzymeContext,
      invalidConfig: {},
    })
    expect(failures).toEqual([
      'configSchema: refused invalidConfig with no issues; an operator would not learn what is wrong',
    ])
  })

  it('fails a configSchema without safeParse, and an invalidConfig with no schema to refuse it', async () => {
    const noParse = await enzymeChecks({
      name: 'ping',
      manifest: respondManifest,
      module: { configSchema: {} as ConfigSchema, create: () => ({ handlers: {} }) },
      context: enzymeContext,
    })
    expect(noParse).toEqual(['configSchema: has no safeParse() function'])
    const noSchema = await enzymeChecks({
      name: 'ping',
      manifest: respondManifest,
      module: { create: () => ({ handlers: {} }) },
      context: enzymeContext,
      invalidConfig: { apiKey: '' },
    })
    expect(noSchema).toEqual([
      'configSchema: invalidConfig was given, but the module has no configSchema to refuse it',
    ])
  })

  it('fails a safeParse that throws or answers asynchronously', async () => {
    const throwing: ConfigSchema = {
      safeParse: () => {
        throw new Error('boom')
      },
    }
    const asynchronous = { safeParse: async () => ({ success: true, data: {} }) } as unknown as ConfigSchema
    const module = (configSchema: ConfigSchema) => ({
      configSchema,
      create: () => ({ handlers: {} }),
    })
    expect(
      await enzymeChecks({
        name: 'ping',
        manifest: respondManifest,
        module: module(throwing),
        context: enzymeContext,
        config: {},
      }),
    ).toEqual(['configSchema: safeParse() threw on config: Error: boom'])
    expect(
      await enzymeChecks({
        name: 'ping',
        manifest: respondManifest,
        module: module(asynchronous),
        context: enzymeContext,
        config: {},
      }),
    ).toEqual(['configSchema: safeParse() returned a promise for config; it must answer synchronously'])
  })

  it('fails a secrets key that a closed JSON Schema does not declare', async () => {
    const configSchema = defineConfig(z.strictObject({ url: z.url(), apiKey: z.string().min(1) }), {
      secrets: ['apiKey', 'apiKy'],
    })
    const failures = await enzymeChecks({
      name: 'ping',
      manifest: respondManifest,
      module: { configSchema, create: () => ({ handlers: {} }) },
      context: enzymeContext,
      config: { url: 'http://127.0.0.1:7878', apiKey: 'k' },
      invalidConfig: { url: 'not a url', apiKey: '' },
    })
    expect(failures).toEqual([
      'configSchema: secrets names "apiKy", which the closed JSON Schema does not declare; ' +
        'the bot would leave the spore dormant',
    ])
  })

  it('exempts a schema that publishes no JSON Schema from the secrets check', async () => {
    const configSchema: ConfigSchema = {
      safeParse: (input) => ({ success: true, data: input }),
      secrets: ['apiKy'],
    }
    const failures = await enzymeChecks({
      name: 'ping',
      manifest: respondManifest,
      module: { configSchema, create: () => ({ handlers: {} }) },
      context: enzymeContext,
    })
    expect(failures).toEqual([])
  })

  it('fails a toJsonSchema that throws', async () => {
    const configSchema: ConfigSchema = {
      safeParse: (input) => ({ success: true, data: input }),
      toJsonSchema: () => {
        throw new Error('unrepresentable')
      },
    }
    const failures = await enzymeChecks({
      name: 'ping',
      manifest: respondManifest,
      module: { configSchema, create: () => ({ handlers: {} }) },
      context: enzymeContext,
    })
    expect(failures).toEqual(['configSchema: toJsonSchema() threw: Error: unrepresentable'])
  })
})
